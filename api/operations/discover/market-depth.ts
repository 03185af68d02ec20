import { defineOperation } from "../../registry/types";
import { depthSchema } from "../../domain/markets/data-source";
import { addressParams, marketChainQuery, PUBLIC_READ, requireMarket } from "./common";

/** GET /discover/markets/{address}/depth: 5 levels, LMSR buy ladder or live order book, discriminated by `kind`. */
export const marketDepth = defineOperation({
  id: "getMarketDepth",
  method: "GET",
  path: "/discover/markets/{address}/depth",
  summary: "5-level depth: LMSR buy ladder or live order book",
  ...PUBLIC_READ,
  errors: ["MARKET_NOT_FOUND"],
  request: { params: addressParams, query: marketChainQuery },
  response: depthSchema,
  mcpTool: "svc_get_market_depth",
  async handler(ctx, { params, query }, call) {
    const m = await requireMarket(ctx, params.address, query.chainId);
    return call.services.marketData[m.settlement].depth(m, 5);
  },
});
