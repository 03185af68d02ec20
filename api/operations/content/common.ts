/** Pieces the content operations share (docs/content.md): the market named in a body, and the open-market rule. */
import { z } from "zod";
import type { ServiceContext } from "../../context";
import type { CatalogMarket } from "../../domain/markets/catalog-types";
import { evmAddress, requireMarket } from "../discover/common";

export const CONTENT_CATEGORY = "content";

/** `{marketAddress, chainId?}` of the content writes (chainId defaults to the service's chain, as in discovery). */
export const marketRefFields = {
  marketAddress: evmAddress.describe("the market's address (GET /discover/markets)"),
  chainId: z.number().int().positive().max(2_147_483_647).optional().describe("default: the service's chain"),
};

export function marketOfBody(ctx: ServiceContext, body: { marketAddress: string; chainId?: number }): Promise<CatalogMarket> {
  return requireMarket(ctx, body.marketAddress, body.chainId);
}
