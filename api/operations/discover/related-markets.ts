import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { listMarkets } from "../../domain/markets/list-query";
import { marketRow, marketRowSchema } from "../../domain/markets/market-view";
import { addressParams, chainIdQuery, PUBLIC_READ, requireMarket } from "./common";

/** GET /discover/markets/{address}/related: other active markets of the same category and chain, busiest first. */
export const relatedMarkets = defineOperation({
  id: "relatedMarkets",
  method: "GET",
  path: "/discover/markets/{address}/related",
  summary: "Related markets: same category and chain",
  ...PUBLIC_READ,
  errors: ["MARKET_NOT_FOUND"],
  request: { params: addressParams, query: z.strictObject({ chainId: chainIdQuery, limit: z.coerce.number().int().min(1).max(20).default(4) }) },
  response: z.object({ address: z.string(), chainId: z.number().int(), markets: z.array(marketRowSchema) }),
  mcpTool: "svc_get_related_markets",
  async handler(ctx, { params, query }) {
    const m = await requireMarket(ctx, params.address, query.chainId);
    const page = await listMarkets(
      ctx.db,
      { pageSize: query.limit, sort: "volume_24h", category: m.category, chainId: m.chainId, excludePk: m.pk },
      ctx.clock.now(),
    );
    return { address: m.address, chainId: m.chainId, markets: page.markets.map((r) => marketRow(r)) };
  },
});
