import type { z } from "zod";
import type { Address } from "viem";
import { defineOperation, Reply } from "../../registry/types";
import type { CommitUnit } from "../../../relayer/db/group-commit";
import type { ExecutionReport, OrderSpec, OrderView } from "../../../relayer/engine";
import type { Venue } from "../../domain/venue/types";
import { EXECUTE, FILLS_REMAINING_HEADER, fillsRemaining, orderbookMarketAt, submitPlacement, toSpec, venueAndAccount } from "./common";
import { MAX_ORDERS_PER_CALL, placeLimitOrderBody, placeOrderBody, placementSchema, type OrderInput } from "./schemas";
import type { ServiceContext } from "../../context";
import type { CallContext } from "../../registry/types";
import { orderResult } from "./serialize";

/**
 * POST /orderbook/place-order: one limit order, or a batch of 1..50 on one market (all placed or none; one write).
 * Answers every order's state at the end of the call with the fills it executed, and the fill allowance left
 * (body `fillsRemaining`, header X-Fills-Remaining). A clientOrderId already used with the same fields returns the
 * existing order and executes nothing.
 */
export const placeOrder = defineOperation({
  id: "placeOrder",
  method: "POST",
  path: "/orderbook/place-order",
  summary: "Place a limit order, or a batch of orders on one market (committed-lane order book)",
  description: `Single form: the order's fields at the top level. Batch form: \`orders\` (1..${MAX_ORDERS_PER_CALL}), all validated before any is placed, all or nothing; one write. Matching is immediate: crossing orders fill at the resting order's price. See docs/trading.md.`,
  ...EXECUTE,
  errors: ["MARKET_NOT_FOUND", "MARKET_CLOSED", "INSUFFICIENT_BALANCE", "FILL_ALLOWANCE_EXHAUSTED", "CONFLICT", "SERVICE_UNAVAILABLE"],
  request: { body: placeOrderBody },
  response: placementSchema,
  mcpTool: "svc_place_order",
  async handler(ctx, { body }, call) {
    return place(ctx, body, call);
  },
});

/** POST /orderbook/place-limit-order: the single resting-order form of place-order (same answer). */
export const placeLimitOrder = defineOperation({
  ...placeOrder,
  id: "placeLimitOrder",
  path: "/orderbook/place-limit-order",
  summary: "Place one resting limit order, GTC or GTD (committed-lane order book)",
  description: "The narrow form of place-order: one order, always a limit that may rest. Same answer, headers and problems. See docs/trading.md.",
  request: { body: placeLimitOrderBody },
  mcpTool: "svc_place_limit_order",
  async handler(ctx, { body }, call) {
    return place(ctx, body, call);
  },
});

async function place(
  ctx: ServiceContext,
  body: { market: string; batch: boolean; orders: OrderInput[] },
  call: CallContext<"api-key-execute">,
): Promise<Reply<z.input<typeof placementSchema>>> {
  const { venue, account } = await venueAndAccount(call.services, call.principal);
  const { marketId } = await orderbookMarketAt(venue, body.market);
  const specs = body.orders.map(toSpec);
  const { views, reports } = await placeAll(venue, { account, marketId }, body.batch, specs, call.unit);
  const remaining = fillsRemaining(venue, account, ctx.clock.now());
  return new Reply(200, { orders: views.map((v) => orderResult(v, reports)), fillsRemaining: remaining }, { [FILLS_REMAINING_HEADER]: String(remaining) });
}

/** The placed orders' views and the reports of the one command that placed them (placeOrders for a batch). */
async function placeAll(
  venue: Venue,
  target: { account: Address; marketId: bigint },
  batch: boolean,
  specs: OrderSpec[],
  unit: CommitUnit | null,
): Promise<{ views: OrderView[]; reports: ExecutionReport[] }> {
  if (batch) {
    const applied = await submitPlacement(venue, { type: "placeOrders", ...target, orders: specs }, unit);
    return { views: applied.result.orders, reports: applied.reports };
  }
  const applied = await submitPlacement(venue, { type: "placeOrder", ...target, ...specs[0]! }, unit);
  return { views: [applied.result], reports: applied.reports };
}
