/**
 * Engine views and execution reports as the order-book API shows them: bigint as decimal strings, prices as
 * basis-point strings, instants as ISO 8601 (events keep the `execution:report` push shape, see schemas.ts).
 */
import { COLLATERAL_ASSET, parseOutcomeAssetId, poolAccountOf, toJsonValue as jsonSafe } from "../../../decoder";
import type { ExecutionReport, OrderView } from "../../../relayer/engine/types";
import type { z } from "zod";
import type { executionEventSchema, OrderResult } from "./schemas";

const iso = (ms: number) => new Date(ms).toISOString();

/** A committed-lane market's catalog address (the catalog lists each at its pool account). */
export function marketAddressOf(marketId: string | bigint): string {
  return poolAccountOf(BigInt(marketId)).toLowerCase();
}

const isFinal = (status: string) => status === "filled" || status === "cancelled" || status === "expired";

/**
 * An order as the API shows it. `reports` are the execution reports of the call that produced `view` (empty for
 * plain reads): its fills, and its last report, which is the order's state at the end of the call (a later order
 * of the same batch can still cancel an earlier one by self-trade prevention after the engine took its view).
 */
export function orderResult(view: OrderView, reports: readonly ExecutionReport[] = []): OrderResult {
  const own = reports.filter((r) => r.orderId === view.orderId && r.account === view.account);
  const last = own.at(-1);
  const status = last?.status ?? view.status;
  const out: OrderResult = {
    orderId: view.orderId,
    clientOrderId: view.clientOrderId ?? null,
    market: marketAddressOf(view.marketId),
    marketId: view.marketId,
    outcome: view.outcome,
    side: view.action,
    priceBps: String(view.priceBps),
    size: view.size.toString(),
    filledSize: (last?.filledSize ?? view.filledSize).toString(),
    remainingSize: (last?.remainingSize ?? view.remainingSize).toString(),
    status,
    timeInForce: view.tif,
    postOnly: view.postOnly,
    expiresAt: view.expiresAt === undefined ? null : iso(view.expiresAt),
    reserved: isFinal(status) ? "0" : view.reserved.toString(),
    fills: own.filter((r) => r.kind === "fill").map(fillOf),
    createdAt: iso(view.createdAt),
    updatedAt: iso(Math.max(view.updatedAt, last?.at ?? 0)),
  };
  const reason = own.findLast((r) => r.kind === "cancelled")?.reason;
  if (reason && status === "cancelled") out.cancelReason = reason;
  return out;
}

function fillOf(r: ExecutionReport) {
  return {
    tradeId: r.tradeId!,
    priceBps: String(r.fillPriceBps),
    size: (r.fillSize ?? 0n).toString(),
    fee: (r.fee ?? 0n).toString(),
    liquidity: r.liquidity!,
    matchKind: r.matchKind!,
    seq: r.seq,
    at: iso(r.at),
  };
}

/** One event of POST /orderbook/events: the report exactly as `execution:report` pushes it, plus the market address. */
export function eventOf(r: ExecutionReport): z.input<typeof executionEventSchema> {
  return { ...(jsonSafe(r) as z.input<typeof executionEventSchema>), market: marketAddressOf(r.marketId) };
}

/** One balance line of GET /orderbook/balances. */
export function balanceOf(b: { assetId: bigint; total: bigint; reserved: bigint; available: bigint }) {
  const amounts = { total: b.total.toString(), reserved: b.reserved.toString(), available: b.available.toString() };
  if (b.assetId === COLLATERAL_ASSET) return { asset: "PM" as const, assetId: "0", ...amounts };
  const o = parseOutcomeAssetId(b.assetId);
  return {
    asset: "OUTCOME" as const,
    assetId: b.assetId.toString(),
    ...(o ? { market: marketAddressOf(o.marketId), marketId: o.marketId.toString(), outcome: o.side } : {}),
    ...amounts,
  };
}
