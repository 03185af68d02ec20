/** Chain ids as the API accepts them: the catalog holds them in int4 columns, so a larger id is a 400, not a 500. */
import { z } from "zod";

export const MAX_CHAIN_ID = 2_147_483_647;
/** A chain id in a JSON body. */
export const chainIdInput = z.number().int().positive().max(MAX_CHAIN_ID);
/** A chain id in a query string. */
export const chainIdQuery = z.coerce.number().int().positive().max(MAX_CHAIN_ID);
