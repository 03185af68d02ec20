import { defineOperation } from "../../registry/types";
import { QUOTE_READ } from "./common";
import { toTradeRequest, tradeBody } from "../../domain/trading/trade-request";
import { tradeQuoteSchema } from "../../domain/trading/trade-answers";

/** POST /trade/quote: the price of a trade now, with the slippage limit a prepare would sign. Changes nothing. */
export const quoteTrade = defineOperation({
  id: "quoteTrade",
  method: "POST",
  path: "/trade/quote",
  summary: "Quote a trade (onchain lane: from the market's live state; committed lane: the exchange engine)",
  ...QUOTE_READ,
  errors: ["MARKET_NOT_FOUND", "MARKET_CLOSED", "SERVICE_UNAVAILABLE"],
  request: { body: tradeBody },
  response: tradeQuoteSchema,
  mcpTool: "svc_quote_trade",
  async handler(_ctx, { body }, call) {
    const req = toTradeRequest(body);
    return (await call.services.trading.laneOf(req.market)).quote(req);
  },
});
