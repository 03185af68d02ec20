import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { heldOrder, isResting, READ, retiredOrder, venueAndAccount } from "./common";
import { lastCommittedReport } from "./order-reports";
import { orderRefBody } from "./schemas";
import { orderResult } from "./serialize";

/**
 * POST /orderbook/confirm-cancel (receipt-authoritative): the order's final state from the committed execution
 * reports: cancelled, filled or expired, `final: true`, with the seq of its last report. An order still on the book
 * answers CONFLICT `reason: ORDER_STILL_OPEN`; changes nothing. A finished order the engine no longer holds
 * (docs/engine.md#retention) is answered the same, from its reports, when asked for by orderId.
 */
export const confirmOrderCancel = defineOperation({
  id: "confirmOrderCancel",
  method: "POST",
  path: "/orderbook/confirm-cancel",
  summary: "Confirm an order is final (cancelled, filled or expired) from its committed execution reports",
  description:
    "Receipt-authoritative: answers only what the journal holds. `lastSeq` is the seq of the order's last execution report: once your events reached it, you hold the order's whole history. Changes nothing. See docs/trading.md.",
  ...READ,
  errors: ["ORDER_NOT_FOUND", "CONFLICT", "SERVICE_UNAVAILABLE"],
  ownedResource: { field: "orderId", kind: "order", notFound: "ORDER_NOT_FOUND" },
  request: { body: orderRefBody },
  response: z.object({
    orderId: z.string(),
    clientOrderId: z.string().nullable(),
    status: z.enum(["cancelled", "filled", "expired"]),
    final: z.literal(true),
    cancelReason: z.string().optional(),
    filledSize: z.string(),
    remainingSize: z.string(),
    lastSeq: z.number().int(),
    at: z.string().describe("ISO 8601 instant of the last report"),
  }),
  mcpTool: "svc_confirm_order_cancel",
  async handler(ctx, { body }, call) {
    const { venue, account } = await venueAndAccount(call.services, call.principal);
    const view = heldOrder(venue, account, body);
    if (view && isResting(view)) {
      throw new ApiError("CONFLICT", `order ${view.orderId} is still ${view.status}: cancel it first (POST /orderbook/cancel-order)`, {
        reason: "ORDER_STILL_OPEN",
        orderId: view.orderId,
        orderStatus: view.status,
        order: orderResult(view),
      });
    }
    // A finished order the engine no longer holds (docs/engine.md#retention) is answered from its reports alone.
    const last = view ? await lastCommittedReport(ctx.db, account, view.orderId) : await retiredOrder(ctx.db, account, body);
    const orderId = view?.orderId ?? last!.orderId;
    if (!last || (last.status !== "cancelled" && last.status !== "filled" && last.status !== "expired")) {
      // The engine has applied the final step but its journal commit is still in flight (milliseconds).
      throw new ApiError(
        "SERVICE_UNAVAILABLE",
        `the final state of order ${orderId} is being committed; retry`,
        { reason: "COMMIT_PENDING", orderId },
        { "Retry-After": "1" },
      );
    }
    return {
      orderId,
      clientOrderId: (view ? view.clientOrderId : last.clientOrderId) ?? null,
      status: last.status,
      final: true as const,
      ...(last.reason ? { cancelReason: last.reason } : {}),
      filledSize: last.filledSize.toString(),
      remainingSize: last.remainingSize.toString(),
      lastSeq: last.seq,
      at: new Date(last.at).toISOString(),
    };
  },
});
