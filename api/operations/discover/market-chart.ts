import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { chartSchema } from "../../domain/markets/data-source";
import { addressParams, chainIdQuery, PUBLIC_READ, requireMarket } from "./common";

/** GET /discover/markets/{address}/chart: price frames of a window (1H, 1D, 1W, ALL) and the latest prices. */
export const marketChart = defineOperation({
  id: "getMarketChart",
  method: "GET",
  path: "/discover/markets/{address}/chart",
  summary: "Price history and latest frame",
  ...PUBLIC_READ,
  errors: ["MARKET_NOT_FOUND"],
  request: { params: addressParams, query: z.strictObject({ chainId: chainIdQuery.optional(), window: z.enum(["1H", "1D", "1W", "ALL"]).default("ALL") }) },
  response: chartSchema,
  mcpTool: "svc_get_market_chart",
  async handler(ctx, { params, query }, call) {
    const m = await requireMarket(ctx, params.address, query.chainId);
    return call.services.marketData[m.settlement].chart(m, query.window);
  },
});
