/**
 * Execution reports: one per order state change and one per side of each fill, numbered gap-free per account (`seq`;
 * the undo log restores the counter of a refused command). Key order is part of the journaled JSON, so each report is
 * built as one literal with a fixed key order.
 */
import type { Acct, Order } from "./model";
import type { EngineState } from "./state";
import type { CancelReason, ExecutionReport, LmsrOutcome, MatchKindName, ReportKind } from "./types";

/** A "new", "cancelled" or "expired" report: the base fields, then clientOrderId, then reason. */
export function report(s: EngineState, o: Order, kind: ReportKind, at: number, reason: CancelReason | undefined): void {
  const a = o.acct;
  s.u.saveAcct(a);
  const seq = ++a.seq;
  const remainingSize = o.status === "cancelled" || o.status === "expired" ? 0n : o.rem;
  if (o.cid === undefined && reason !== undefined) {
    // The common cancel, as one literal (same keys, same order as the general case below).
    s.reports[s.nReports++] = {
      account: a.addr,
      seq,
      at,
      kind,
      orderId: o.id,
      marketId: o.mkt.idStr,
      status: o.status,
      outcome: o.outcome,
      action: o.action,
      priceBps: o.price,
      size: o.size,
      filledSize: o.filled,
      remainingSize,
      tif: o.tif,
      reason,
    };
    return;
  }
  const r: ExecutionReport = {
    account: a.addr,
    seq,
    at,
    kind,
    orderId: o.id,
    marketId: o.mkt.idStr,
    status: o.status,
    outcome: o.outcome,
    action: o.action,
    priceBps: o.price,
    size: o.size,
    filledSize: o.filled,
    remainingSize,
    tif: o.tif,
  };
  if (o.cid !== undefined) r.clientOrderId = o.cid;
  if (reason !== undefined) r.reason = reason;
  s.reports[s.nReports++] = r;
}

/** A "fill" report of an order-book fill (same keys, same order as report() plus the fill fields). */
export function fillReport(
  s: EngineState,
  o: Order,
  at: number,
  tradeId: string,
  fillPriceBps: number,
  fillSize: bigint,
  fee: bigint,
  liquidity: "maker" | "taker",
  matchKind: MatchKindName,
  counterOrderId: string,
): void {
  const a = o.acct;
  s.u.saveAcct(a);
  if (o.cid !== undefined) {
    s.reports[s.nReports++] = {
      account: a.addr,
      seq: ++a.seq,
      at,
      kind: "fill",
      orderId: o.id,
      marketId: o.mkt.idStr,
      status: o.status,
      outcome: o.outcome,
      action: o.action,
      priceBps: o.price,
      size: o.size,
      filledSize: o.filled,
      remainingSize: o.rem,
      tif: o.tif,
      clientOrderId: o.cid,
      tradeId,
      fillPriceBps,
      fillSize,
      fee,
      liquidity,
      matchKind,
      counterOrderId,
    };
  } else {
    s.reports[s.nReports++] = {
      account: a.addr,
      seq: ++a.seq,
      at,
      kind: "fill",
      orderId: o.id,
      marketId: o.mkt.idStr,
      status: o.status,
      outcome: o.outcome,
      action: o.action,
      priceBps: o.price,
      size: o.size,
      filledSize: o.filled,
      remainingSize: o.rem,
      tif: o.tif,
      tradeId,
      fillPriceBps,
      fillSize,
      fee,
      liquidity,
      matchKind,
      counterOrderId,
    };
  }
}

/**
 * The one "fill" report of an LMSR trade: an immediately filled IOC taker whose order id is the trade id, at the
 * average net price in bps (clamped to 1..9999).
 */
export function lmsrFillReport(
  s: EngineState,
  acct: Acct,
  at: number,
  tradeId: string,
  marketId: string,
  outcome: LmsrOutcome,
  buy: boolean,
  shares: bigint,
  net: bigint,
  fee: bigint,
): void {
  s.u.saveAcct(acct);
  const avgBps = Number((net * 10_000n) / shares);
  s.reports[s.nReports++] = {
    account: acct.addr,
    seq: ++acct.seq,
    at,
    kind: "fill",
    orderId: tradeId,
    marketId,
    status: "filled",
    outcome,
    action: buy ? "buy" : "sell",
    priceBps: Math.min(9_999, Math.max(1, avgBps)),
    size: shares,
    filledSize: shares,
    remainingSize: 0n,
    tif: "IOC",
    tradeId,
    fillPriceBps: Math.min(9_999, Math.max(1, avgBps)),
    fillSize: shares,
    fee,
    liquidity: "taker",
  };
}
