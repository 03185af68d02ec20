import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { tradesSchema } from "../../domain/markets/data-source";
import { addressParams, chainIdQuery, PUBLIC_READ, requireMarket } from "./common";

/** GET /discover/markets/{address}/trades: recent trades, newest first. */
export const marketTrades = defineOperation({
  id: "getMarketTrades",
  method: "GET",
  path: "/discover/markets/{address}/trades",
  summary: "Recent trades, newest first",
  ...PUBLIC_READ,
  errors: ["MARKET_NOT_FOUND"],
  request: { params: addressParams, query: z.strictObject({ chainId: chainIdQuery.optional(), limit: z.coerce.number().int().min(1).max(100).default(20) }) },
  response: tradesSchema,
  mcpTool: "svc_get_market_trades",
  async handler(ctx, { params, query }, call) {
    const m = await requireMarket(ctx, params.address, query.chainId);
    return call.services.marketData[m.settlement].trades(m, query.limit);
  },
});
