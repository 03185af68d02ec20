import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { getMarketByExternalId } from "../../domain/markets/catalog-store";
import { PUBLIC_READ } from "./common";

/**
 * GET /discover/markets/exists?externalId=: whether a market with that external id is listed (external ids are unique
 * across the venue, so this also answers "did I already deploy it").
 */
export const marketExists = defineOperation({
  id: "marketExists",
  method: "GET",
  path: "/discover/markets/exists",
  summary: "Whether a market with this external id is already listed",
  ...PUBLIC_READ,
  request: { query: z.strictObject({ externalId: z.string().min(1).max(200) }) },
  response: z.object({
    externalId: z.string(),
    exists: z.boolean(),
    market: z.object({ address: z.string(), chainId: z.number().int(), marketId: z.string().nullable(), state: z.string(), settlement: z.string() }).nullable(),
  }),
  mcpTool: "svc_market_exists",
  async handler(ctx, { query }) {
    const m = await getMarketByExternalId(ctx.db, query.externalId, ctx.clock.now());
    return {
      externalId: query.externalId,
      exists: m !== null,
      market: m ? { address: m.address, chainId: m.chainId, marketId: m.marketId === null ? null : m.marketId.toString(), state: m.state, settlement: m.settlement } : null,
    };
  },
});
