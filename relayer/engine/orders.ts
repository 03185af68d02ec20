/**
 * Order placement and cancellation on an ORDERBOOK market: clientOrderId dedupe, the allowance, post-only, FOK, then
 * matching and resting the remainder with its lock; cancels by id, by clientOrderId, all of an account, and the
 * batch forms (placeOrders, replaceQuotes: all or nothing).
 */
import { COLLATERAL_ASSET } from "../../decoder";
import { requireAllowance } from "./allowance";
import { scheduleExpiry } from "./expiry";
import { fillable, match, notional } from "./matching";
import { byAge, isResting, type Acct, type Market, type Order } from "./model";
import { invalid, reject } from "./rejection";
import { report } from "./reports";
import { cancelResting, openAdd } from "./resting";
import { orderByNumber, orderNumber } from "./retention";
import type { EngineState } from "./state";
import type { CancelAllCommand, CancelAllResult, OrderSpec, OrderView, PlaceOrdersResult, ReplaceQuotesResult } from "./types";
import { addressOf } from "./validation";
import { orderView } from "./views";

const C0 = COLLATERAL_ASSET;
// Hot path: imported functions are called through these locals (transpiled CommonJS imports are getter chains).
const checkAllowance = requireAllowance;
const reportOf = report;
const fillableSize = fillable;
const matchTaker = match;
const lockOf = notional;
const linkResting = openAdd;
const unrest = cancelResting;
const accountOf = addressOf;
const viewOf = orderView;
const byNumber = orderByNumber;

/** The order with id `o-<n>`, resting or finished and still held (./retention.ts). */
export function orderById(s: EngineState, id: string): Order | undefined {
  const n = orderNumber(id);
  return n > 0 && n < s.nextOrder ? byNumber(s, n) : undefined;
}

function sameSpec(o: Order, spec: OrderSpec): boolean {
  return (
    o.outcome === spec.outcome &&
    o.action === spec.action &&
    o.price === spec.priceBps &&
    o.size === spec.size &&
    o.tif === spec.tif &&
    o.expiresAt === spec.expiresAt &&
    o.postOnly === (spec.postOnly ?? false)
  );
}

/** Places one validated order: dedupe, allowance, post-only, FOK, match, then rest or cancel the remainder. */
export function place(s: EngineState, acct: Acct, mkt: Market, spec: OrderSpec, at: number): Order {
  if (spec.clientOrderId !== undefined) {
    const prior = acct.cids.get(spec.clientOrderId);
    if (prior) {
      if (prior.mkt === mkt && sameSpec(prior, spec)) return prior;
      reject("CLIENT_ORDER_ID_REUSED", `clientOrderId ${spec.clientOrderId} was used for a different order`, { orderId: prior.id });
    }
  }
  const side: 0 | 1 = (spec.outcome === 0) === (spec.action === "buy") ? 0 : 1;
  const y = spec.outcome === 0 ? spec.priceBps : 10_000 - spec.priceBps;
  if (s.config.allowance.enabled) {
    checkAllowance(
      s,
      acct,
      at,
      mkt.assets[spec.outcome]!,
      spec.action === "sell",
      spec.size,
      "no executed wallet-sides left in this period; buy trade credits or close a full position",
    );
  }
  const book = mkt.book;
  const crosses = side === 0 ? book.bestAsk <= y : book.bestBid >= y;
  if (spec.postOnly && crosses) reject("POST_ONLY_WOULD_CROSS", "post-only order would cross the book", {});

  const n = s.nextOrder++;
  const buy = spec.action === "buy";
  const o: Order = {
    id: `o-${n}`,
    n,
    acct,
    mkt,
    cid: spec.clientOrderId,
    outcome: spec.outcome,
    action: spec.action,
    price: spec.priceBps,
    size: spec.size,
    tif: spec.tif,
    expiresAt: spec.expiresAt,
    postOnly: spec.postOnly ?? false,
    createdAt: at,
    side,
    y,
    resAsset: buy ? C0 : mkt.assets[spec.outcome]!,
    rem: spec.size,
    filled: 0n,
    status: "open",
    updatedAt: at,
    res: 0n,
    prev: null,
    next: null,
    dead: false,
    ep: s.u.ep,
    aPrev: null,
    aNext: null,
  };
  s.byN.push(o); // index n - base; apply truncates it on rollback
  if (o.cid !== undefined) acct.cids.set(o.cid, o);
  s.u.newOrder(o);
  reportOf(s, o, "new", at, undefined);

  if (spec.tif === "FOK" && crosses && fillableSize(o) < o.size) {
    o.status = "cancelled";
    reportOf(s, o, "cancelled", at, "fok_not_fillable");
    return o;
  }
  if (crosses) matchTaker(s, o, at);
  if (o.rem === 0n) return o;
  if (o.tif === "IOC" || o.tif === "FOK") {
    o.status = "cancelled";
    reportOf(s, o, "cancelled", at, spec.tif === "FOK" ? "fok_not_fillable" : "ioc_remainder");
    return o;
  }
  // Rest: lock what it can need as a maker (makers pay no fee).
  o.res = buy ? lockOf(o.rem, o.price) : o.rem;
  const b = acct.bals.get(o.resAsset) ?? s.bal(acct.addr, o.resAsset);
  s.u.saveBal(b);
  b.r += o.res;
  if (b.v < b.r) {
    reject("INSUFFICIENT_BALANCE", `insufficient available balance to rest the order`, {
      account: acct.addr,
      assetId: o.resAsset.toString(),
      shortBy: (b.r - b.v).toString(),
    });
  }
  book.insert(o);
  linkResting(s, acct, o);
  if (o.tif === "GTD") scheduleExpiry(s, o);
  return o;
}

/** placeOrders: every validated spec placed in order (any refusal refuses them all). */
export function placeBatch(s: EngineState, acct: Acct, mkt: Market, specs: readonly OrderSpec[], at: number): PlaceOrdersResult {
  return { orders: specs.map((spec) => orderView(place(s, acct, mkt, spec, at))) };
}

/** replaceQuotes: the account's resting orders in the market cancelled (`replaced`, locks freed), then the set placed. */
export function replaceQuotes(s: EngineState, acct: Acct, mkt: Market, specs: readonly OrderSpec[], at: number): ReplaceQuotesResult {
  const cancelled: string[] = [];
  for (const o of byAge(acct))
    if (o.mkt === mkt) {
      cancelResting(s, o, "cancelled", "replaced", at);
      cancelled.push(o.id);
    }
  return { cancelled, orders: specs.map((spec) => orderView(place(s, acct, mkt, spec, at))) };
}

/**
 * cancelOrder by id or clientOrderId: a resting order is cancelled; a cancelled or expired one is answered unchanged;
 * a filled one is ORDER_NOT_OPEN; an unknown or another account's order is ORDER_NOT_FOUND.
 */
export function cancelOrder(s: EngineState, account: unknown, orderId: unknown, clientOrderId: unknown, at: number): OrderView {
  const addr = accountOf(account, "account");
  let o: Order | undefined;
  if (typeof orderId === "string") o = orderById(s, orderId);
  else if (typeof clientOrderId === "string") o = s.accts.get(addr)?.cids.get(clientOrderId);
  else return invalid("orderId or clientOrderId is required");
  if (!o || o.acct.addr !== addr) return reject("ORDER_NOT_FOUND", "order not found", {});
  if (isResting(o)) unrest(s, o, "cancelled", "user", at);
  else if (o.status === "filled") reject("ORDER_NOT_OPEN", "order is already filled", { order: viewOf(o) });
  return viewOf(o);
}

/** cancelAll: every resting order of the account (in one market, or all), oldest first. */
export function cancelAll(s: EngineState, c: CancelAllCommand, at: number): CancelAllResult {
  const acct = s.accts.get(addressOf(c.account, "account"));
  if (c.marketId !== undefined && typeof c.marketId !== "bigint") return invalid("marketId must be a bigint");
  const cancelled: string[] = [];
  if (acct)
    for (const o of byAge(acct))
      if (c.marketId === undefined || o.mkt.id === c.marketId) {
        cancelResting(s, o, "cancelled", "cancel_all", at);
        cancelled.push(o.id);
      }
  return { cancelled };
}
