/**
 * Shared rules of the order-book operations (docs/trading.md): who may call them, which markets take orders, how an
 * agent's order is found (never another agent's), and how a placement answers (X-Fills-Remaining, 402).
 */
import type { Address } from "viem";
import type { Accepted, Command, ExecutionReport, OrderSpec, OrderView } from "../../../relayer/engine";
import type { SqlRunner } from "../../../relayer/db/client";
import type { CommitUnit } from "../../../relayer/db/group-commit";
import { lastCommittedReport } from "./order-reports";
import { ApiError } from "../../platform/errors/api-error";
import { acceptedFills, FILLS_REMAINING_HEADER } from "../../domain/venue/allowance-problem";
import type { KeyPrincipal } from "../../domain/auth/principal";
import type { Services } from "../../services";
import type { Venue, VenueMarket } from "../../domain/venue/types";
import type { OrderInput } from "./schemas";
import { PORTFOLIO_READ_ACCESS, TRADE_EXECUTE_ACCESS } from "../../registry/types";

/**
 * Writes: execute tier, trade:execute, one write each (a batch too), Idempotency-Key required; group-committed (the
 * journal entry, idempotency and call records in one transaction per tick: docs/api-performance.md).
 */
export const EXECUTE = { category: "orderbook", ...TRADE_EXECUTE_ACCESS, groupCommit: true } as const;

/** Reads of the agent's own order-book state: any key tier holding portfolio:read. */
export const READ = { category: "orderbook", ...PORTFOLIO_READ_ACCESS } as const;

export { FILLS_REMAINING_HEADER };

/** The venue and the caller's engine account (opened with its starting grant on first use). */
export async function venueAndAccount(services: Services, principal: KeyPrincipal): Promise<{ venue: Venue; account: Address }> {
  const { venue } = services;
  return { venue, account: await venue.accountOf(principal) };
}

/** A committed-lane ORDERBOOK market that takes orders now. */
export async function orderbookMarketAt(venue: Venue, address: string): Promise<VenueMarket> {
  const vm = await venue.marketAt(address);
  if (vm.market.pricingModel !== "ORDERBOOK") {
    throw new ApiError("INVALID_PAYLOAD", `market ${vm.market.address} is ${vm.market.pricingModel} (no order book): trade it with POST /trade/prepare`, {
      field: "market",
      location: "body",
    });
  }
  if (vm.market.state !== "open") throw new ApiError("MARKET_CLOSED", `market ${vm.market.address} is ${vm.market.state}`);
  return vm;
}

export function toSpec(o: OrderInput): OrderSpec {
  return {
    ...(o.clientOrderId !== undefined ? { clientOrderId: o.clientOrderId } : {}),
    outcome: o.outcome,
    action: o.side,
    priceBps: o.priceBps,
    size: o.size,
    tif: o.timeInForce,
    ...(o.expiresAt !== undefined ? { expiresAt: o.expiresAt } : {}),
    ...(o.postOnly ? { postOnly: true } : {}),
  };
}

/**
 * Submits a placement in the call's commit unit (`call.unit`). The engine's allowance refusal becomes the 402 problem
 * with the allowance (ISO instants) and `X-Fills-Remaining: 0`; other refusals take the central mapping
 * (api/platform/errors/engine-rejection.ts).
 */
export async function submitPlacement<C extends Command>(venue: Venue, command: C, unit: CommitUnit | null): Promise<Accepted<C>> {
  return acceptedFills(await venue.exchange.submit(command, { unit }));
}

/** The fill allowance the agent has left now (the engine counts it; X-Fills-Remaining). */
export function fillsRemaining(venue: Venue, account: Address, now: number): number {
  return venue.exchange.engine.allowance(account, now).remaining;
}

/** The caller's order if the engine holds it (resting, or finished within its retention: docs/engine.md#retention). */
export function heldOrder(venue: Venue, account: Address, ref: OrderRef): OrderView | undefined {
  const engine = venue.exchange.engine;
  const view = ref.orderId !== undefined ? engine.order(ref.orderId) : engine.orderByClientId(account, ref.clientOrderId!);
  return view && view.account === account ? view : undefined;
}

/**
 * The last committed report of the caller's order that the engine no longer holds: a finished order its account
 * finished more than the retention's count of orders after (docs/engine.md#retention), found by `orderId` in the
 * caller's own reports. Otherwise ORDER_NOT_FOUND, and always so by clientOrderId: a forgotten clientOrderId names
 * no order any more (it may be used again).
 */
export async function retiredOrder(db: SqlRunner, account: Address, ref: OrderRef): Promise<ExecutionReport> {
  const last = ref.orderId === undefined ? null : await lastCommittedReport(db, account, ref.orderId);
  if (!last) throw orderNotFound(ref);
  return last;
}

type OrderRef = { orderId?: string; clientOrderId?: string };

function orderNotFound(ref: OrderRef): ApiError {
  return new ApiError(
    "ORDER_NOT_FOUND",
    `no order ${ref.orderId ?? `with clientOrderId ${ref.clientOrderId}`} of this agent`,
    ref.orderId !== undefined ? { orderId: ref.orderId } : { clientOrderId: ref.clientOrderId },
  );
}

export const isResting = (v: OrderView) => v.status === "open" || v.status === "partially_filled";
