/**
 * Read views of the engine's records: orders, markets and balances as the results and the read API show them.
 * Views are fresh objects; nothing a caller does to one reaches the engine.
 */
import type { Address } from "viem";
import { NO_ASK, NO_BID } from "./book";
import { lifecycleView } from "./lifecycle-views";
import { byAge, isResting, type LcMarket, type Market, type Order } from "./model";
import { prices } from "../pricing/lmsr";
import type { EngineState } from "./state";
import type { BalanceView, MarketView, OrderView } from "./types";

export function orderView(o: Order): OrderView {
  const v: OrderView = {
    orderId: o.id,
    account: o.acct.addr,
    marketId: o.mkt.idStr,
    outcome: o.outcome,
    action: o.action,
    priceBps: o.price,
    size: o.size,
    filledSize: o.filled,
    remainingSize: isResting(o) ? o.rem : 0n,
    tif: o.tif,
    postOnly: o.postOnly,
    status: o.status,
    reserved: o.res,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
  if (o.cid !== undefined) v.clientOrderId = o.cid;
  if (o.expiresAt !== undefined) v.expiresAt = o.expiresAt;
  return v;
}

export function marketView(m: Market): MarketView {
  return {
    marketId: m.idStr,
    pricing: m.pricing,
    outcomes: m.outcomes,
    feeModel: m.feeModel,
    takerFeeBps: m.takerFeeBps,
    sellExitFeeBps: m.sellExitFeeBps,
    winningsExitFeeBps: m.winningsExitFeeBps,
    status: m.status,
    ...(m.winningOutcome !== undefined ? { winningOutcome: m.winningOutcome } : {}),
    createdAt: m.createdAt,
    bestBidBps: m.book.bestBid === NO_BID ? null : m.book.bestBid,
    bestAskBps: m.book.bestAsk === NO_ASK ? null : m.book.bestAsk,
    lane: "committed",
    ...(m.lcm ? { lifecycle: lifecycleView(m.lcm) } : {}),
    ...(m.lmsr
      ? {
          lmsr: { b: m.lmsr.b, q: [...m.lmsr.q], seed: m.lmsr.seed, funder: m.lmsr.funder, pool: m.lmsr.pool, pricesWad: prices({ b: m.lmsr.b, q: m.lmsr.q }) },
        }
      : {}),
  };
}

/** The view of a market with a lifecycle: its committed market's, or (on-chain lane) one built from its terms. */
export function lcMarketView(lm: LcMarket): MarketView {
  if (lm.mkt) return marketView(lm.mkt);
  const t = lm.terms;
  const state = lm.lc.state;
  return {
    marketId: lm.idStr,
    pricing: t.pricing,
    outcomes: t.outcomes,
    feeModel: t.feeModel,
    takerFeeBps: t.takerFeeBps,
    sellExitFeeBps: t.sellExitFeeBps,
    winningsExitFeeBps: t.winningsExitFeeBps,
    status: state === "open" ? "open" : state === "resolved" ? "resolved" : state === "void" ? "voided" : "closed",
    ...(state === "resolved" && typeof lm.lc.verdict === "number" ? { winningOutcome: lm.lc.verdict } : {}),
    createdAt: t.createdAt,
    bestBidBps: null,
    bestAskBps: null,
    lane: "onchain",
    lifecycle: lifecycleView(lm),
  };
}

/** One balance of a (lower-case) account; zero when the engine never saw it. */
export function balanceView(s: EngineState, addr: Address, assetId: bigint): BalanceView {
  const b = s.accts.get(addr)?.bals.get(assetId);
  const total = b?.v ?? 0n;
  const reserved = b?.r ?? 0n;
  return { assetId, total, reserved, available: total - reserved };
}

/** Every non-zero balance of a (lower-case) account, collateral first. */
export function balancesView(s: EngineState, addr: Address): BalanceView[] {
  const a = s.accts.get(addr);
  if (!a) return [];
  return [...a.bals.entries()]
    .filter(([, b]) => b.v !== 0n || b.r !== 0n)
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([id]) => balanceView(s, a.addr, id));
}

/** A (lower-case) account's resting orders, oldest first, in one market or all. */
export function openOrdersView(s: EngineState, addr: Address, marketId?: bigint): OrderView[] {
  const a = s.accts.get(addr);
  if (!a) return [];
  const out: OrderView[] = [];
  for (const o of byAge(a)) if (marketId === undefined || o.mkt.id === marketId) out.push(orderView(o));
  return out;
}
