import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { accepted } from "../../platform/errors/engine-rejection";
import { EXECUTE, venueAndAccount } from "./common";
import { marketField } from "./schemas";

/** POST /orderbook/cancel-all: cancels every resting order of the agent, in one market or everywhere (one write). */
export const cancelAllOrders = defineOperation({
  id: "cancelAllOrders",
  method: "POST",
  path: "/orderbook/cancel-all",
  summary: "Cancel every resting order of the agent (optionally in one market)",
  description: "Answers the ids of the orders it cancelled (cancelReason cancel_all), oldest first; none is not an error. See docs/trading.md.",
  ...EXECUTE,
  errors: ["MARKET_NOT_FOUND", "SERVICE_UNAVAILABLE"],
  request: { body: z.strictObject({ market: marketField.optional() }) },
  response: z.object({ cancelled: z.array(z.string()) }),
  mcpTool: "svc_cancel_all_orders",
  async handler(_ctx, { body }, call) {
    const { venue, account } = await venueAndAccount(call.services, call.principal);
    const marketId = body.market === undefined ? undefined : (await venue.marketAt(body.market)).marketId;
    const applied = accepted(await venue.exchange.submit({ type: "cancelAll", account, ...(marketId !== undefined ? { marketId } : {}) }, { unit: call.unit }));
    return { cancelled: applied.result.cancelled };
  },
});
