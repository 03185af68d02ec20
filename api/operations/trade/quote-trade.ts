import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { quoteOnchain } from "./onchain-lane";
import { laneOf, toRequest, tradeBody } from "./common";

/** POST /trade/quote: the price of a trade now, with the slippage limit a prepare would sign. Changes nothing. */
export const quoteTrade = defineOperation({
  id: "quoteTrade",
  method: "POST",
  path: "/trade/quote",
  summary: "Quote a trade (onchain lane: from the market's live state; committed lane: the exchange engine)",
  category: "trading",
  permission: "api-key-read",
  tier: "read-only",
  scopes: ["trade:quote"],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  errors: ["MARKET_NOT_FOUND", "MARKET_CLOSED", "SERVICE_UNAVAILABLE"],
  request: { body: tradeBody },
  response: z.looseObject({ lane: z.enum(["onchain", "committed"]), market: z.string() }),
  mcpTool: "svc_quote_trade",
  async handler(ctx, { body }, call) {
    const req = toRequest(body);
    const lane = await laneOf(ctx, call.services, req.market);
    if (lane.lane === "committed") return { lane: "committed" as const, market: req.market, ...(await lane.impl.quote(req, call.principal)) };
    return { ...(await quoteOnchain(ctx, call.services.trading.onchain, lane.market, req)) };
  },
});
