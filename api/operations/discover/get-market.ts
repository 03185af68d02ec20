import { defineOperation } from "../../registry/types";
import { marketDetail, marketDetailSchema } from "../../domain/markets/market-view";
import { addressParams, marketChainQuery, PUBLIC_READ, requireMarket } from "./common";

/** GET /discover/markets/{address}: one market with its trading rules, every deadline and its settlement lane. */
export const getDiscoverMarket = defineOperation({
  id: "getMarket",
  method: "GET",
  path: "/discover/markets/{address}",
  summary: "Market detail: trading rules, deadlines, pricing model, settlement lane",
  ...PUBLIC_READ,
  errors: ["MARKET_NOT_FOUND"],
  request: { params: addressParams, query: marketChainQuery },
  response: marketDetailSchema,
  mcpTool: "svc_get_market",
  async handler(ctx, { params, query }) {
    return marketDetail(await requireMarket(ctx, params.address, query.chainId));
  },
});
