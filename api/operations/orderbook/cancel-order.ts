import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { accepted } from "../../platform/errors/engine-rejection";
import { EXECUTE, heldOrder, isResting, retiredOrder, venueAndAccount } from "./common";
import { orderRefBody, orderResultSchema } from "./schemas";
import { orderResult } from "./serialize";

/**
 * POST /orderbook/cancel-order: takes a resting order of the agent off the book and frees its lock. Cancelling is
 * terminal: an order that is no longer resting (filled, cancelled, expired) answers CONFLICT `reason: ORDER_NOT_OPEN`
 * with its final state; an unknown or another agent's order answers ORDER_NOT_FOUND. A finished order the engine no
 * longer holds (docs/engine.md#retention) answers ORDER_NOT_OPEN from its last committed report, `retired: true`.
 */
export const cancelOrder = defineOperation({
  id: "cancelOrder",
  method: "POST",
  path: "/orderbook/cancel-order",
  summary: "Cancel a resting order by orderId or clientOrderId",
  description: "Answers the cancelled order (status cancelled, remainingSize 0). Confirm with POST /orderbook/confirm-cancel. See docs/trading.md.",
  ...EXECUTE,
  errors: ["ORDER_NOT_FOUND", "CONFLICT", "SERVICE_UNAVAILABLE"],
  ownedResource: { field: "orderId", kind: "order", notFound: "ORDER_NOT_FOUND" },
  request: { body: orderRefBody },
  response: z.object({ order: orderResultSchema }),
  mcpTool: "svc_cancel_order",
  async handler(ctx, { body }, call) {
    const { venue, account } = await venueAndAccount(call.services, call.principal);
    // Look-up and submit run in one turn of the event loop: no other command can change the order in between.
    const view = heldOrder(venue, account, body);
    if (!view) {
      // Not held: finished long ago (its last report says how), or unknown. Nothing to submit either way.
      const last = await retiredOrder(ctx.db, account, body);
      throw notOpen(last.orderId, last.status, { retired: true });
    }
    if (!isResting(view)) throw notOpen(view.orderId, view.status, { order: orderResult(view) });
    const applied = accepted(await venue.exchange.submit({ type: "cancelOrder", account, orderId: view.orderId }, { unit: call.unit }));
    return { order: orderResult(applied.result, applied.reports) };
  },
});

/** Cancelling is terminal: an order that finished answers CONFLICT ORDER_NOT_OPEN with how it finished. */
function notOpen(orderId: string, status: string, extra: Record<string, unknown>): ApiError {
  return new ApiError("CONFLICT", `order ${orderId} is already ${status}`, { reason: "ORDER_NOT_OPEN", orderId, orderStatus: status, ...extra });
}
