import { defineOperation, Reply, TRADE_EXECUTE_ACCESS } from "../../registry/types";
import { prepareBody, toPrepareRequest } from "../../domain/trading/trade-request";
import { preparedTradeSchema } from "../../domain/trading/trade-answers";
import { FILLS_REMAINING_HEADER } from "../../domain/venue/allowance-problem";

/**
 * POST /trade/prepare. Committed lane: executes the trade at once within the slippage bound (an LMSR trade or an IOC
 * order). Onchain lane: quotes, checks the router approvals (409 CONFLICT with the recipes when missing) and returns
 * the EIP-712 TradeIntent to sign, stored by its digest for GET /trade/intent/{digest} and POST /trade/submit.
 */
export const prepareTrade = defineOperation({
  id: "prepareTrade",
  method: "POST",
  path: "/trade/prepare",
  summary: "Prepare a trade: the EIP-712 intent to sign (onchain lane) or the engine's order (committed lane)",
  category: "trading",
  // On the committed lane prepare executes the trade: a retry must replay, never trade twice.
  ...TRADE_EXECUTE_ACCESS,
  groupCommit: true,
  errors: ["MARKET_NOT_FOUND", "MARKET_CLOSED", "CONFLICT", "INSUFFICIENT_BALANCE", "FILL_ALLOWANCE_EXHAUSTED", "SERVICE_UNAVAILABLE"],
  request: { body: prepareBody },
  status: 201,
  response: preparedTradeSchema,
  mcpTool: "svc_prepare_trade",
  async handler(_ctx, { body }, call) {
    const req = toPrepareRequest(body);
    const lane = await call.services.trading.laneOf(req.market);
    const prepared = await lane.prepare(req, call.principal, call.unit);
    // The committed lane executed fills: like place-order, the allowance left is a header too.
    const headers: Record<string, string> = "fillsRemaining" in prepared ? { [FILLS_REMAINING_HEADER]: String(prepared.fillsRemaining) } : {};
    return new Reply(201, prepared, headers);
  },
});
