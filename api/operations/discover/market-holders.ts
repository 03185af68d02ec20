import { defineOperation } from "../../registry/types";
import { holdersSchema } from "../../domain/markets/data-source";
import { addressParams, marketChainQuery, PUBLIC_READ, requireMarket } from "./common";

/** GET /discover/markets/{address}/holders: holder distribution per outcome and open interest. */
export const marketHolders = defineOperation({
  id: "getMarketHolders",
  method: "GET",
  path: "/discover/markets/{address}/holders",
  summary: "Holder distribution and open interest",
  ...PUBLIC_READ,
  errors: ["MARKET_NOT_FOUND"],
  request: { params: addressParams, query: marketChainQuery },
  response: holdersSchema,
  mcpTool: "svc_get_market_holders",
  async handler(ctx, { params, query }, call) {
    const m = await requireMarket(ctx, params.address, query.chainId);
    return call.services.marketData[m.settlement].holders(m);
  },
});
