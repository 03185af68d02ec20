import { z } from "zod";
import { defineOperation, KEY_READ_ACCESS } from "../../registry/types";
import { getMarketByExternalId } from "../../domain/markets/catalog-store";
import { ledgerAccountFor } from "../../domain/auth/ledger-account";

/**
 * GET /discover/markets/exists?externalId=: whether the calling agent already deployed a market with that external id
 * (external ids are unique per creator, so another creator's market of the same id does not count).
 */
export const marketExists = defineOperation({
  id: "marketExists",
  method: "GET",
  path: "/discover/markets/exists",
  summary: "Whether you already deployed a market with this external id",
  category: "discovery",
  ...KEY_READ_ACCESS,
  request: { query: z.strictObject({ externalId: z.string().min(1).max(200) }) },
  response: z.object({
    externalId: z.string(),
    exists: z.boolean(),
    market: z.object({ address: z.string(), chainId: z.number().int(), marketId: z.string().nullable(), state: z.string(), settlement: z.string() }).nullable(),
  }),
  mcpTool: "svc_market_exists",
  async handler(ctx, { query }, call) {
    const creator = await ledgerAccountFor(ctx, call.principal);
    const m = await getMarketByExternalId(ctx.db, creator, query.externalId, ctx.clock.now());
    return {
      externalId: query.externalId,
      exists: m !== null,
      market: m
        ? { address: m.address, chainId: m.chainId, marketId: m.marketId === null ? null : m.marketId.toString(), state: m.state, settlement: m.settlement }
        : null,
    };
  },
});
