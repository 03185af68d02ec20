import { z } from "zod";
import { defineOperation, Reply } from "../../registry/types";
import { EXECUTE, FILLS_REMAINING_HEADER, fillsRemaining, orderbookMarketAt, submitPlacement, toSpec, venueAndAccount } from "./common";
import { marketField, MAX_ORDERS_PER_CALL, ordersField, placementSchema } from "./schemas";
import { orderResult } from "./serialize";

/**
 * POST /orderbook/replace-quotes: atomically cancels every resting order of the agent in the market (reason
 * `replaced`, locks freed first) and places the new set; all or nothing, one write. An empty set only cancels.
 */
export const replaceQuotes = defineOperation({
  id: "replaceQuotes",
  method: "POST",
  path: "/orderbook/replace-quotes",
  summary: "Atomically replace the agent's resting orders in a market with a new set",
  description: `Cancels every resting order of the agent in the market (cancelReason replaced; their locks are freed before the new orders lock theirs) and places \`orders\` (0..${MAX_ORDERS_PER_CALL}); if any new order is refused nothing changes. One write. See docs/trading.md.`,
  ...EXECUTE,
  errors: ["MARKET_NOT_FOUND", "MARKET_CLOSED", "INSUFFICIENT_BALANCE", "FILL_ALLOWANCE_EXHAUSTED", "CONFLICT", "SERVICE_UNAVAILABLE"],
  request: { body: z.strictObject({ market: marketField, orders: ordersField(0) }) },
  response: placementSchema.extend({ cancelled: z.array(z.string()).describe("ids of the orders this call cancelled") }),
  mcpTool: "svc_replace_quotes",
  async handler(ctx, { body }, call) {
    const { venue, account } = await venueAndAccount(call.services, call.principal);
    const { marketId } = await orderbookMarketAt(venue, body.market);
    const applied = await submitPlacement(venue, { type: "replaceQuotes", account, marketId, orders: body.orders.map(toSpec) }, call.unit);
    const r = applied.result;
    const remaining = fillsRemaining(venue, account, ctx.clock.now());
    return new Reply(
      200,
      { orders: r.orders.map((v) => orderResult(v, applied.reports)), cancelled: r.cancelled, fillsRemaining: remaining },
      { [FILLS_REMAINING_HEADER]: String(remaining) },
    );
  },
});
