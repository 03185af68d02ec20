/**
 * Matching a taker against the book: price-time priority in YES terms, each fill at the maker's price, self-trade
 * prevention (the taker's own resting order is cancelled), one MATCH op and two fill reports per fill.
 */
import { MatchKind, type MatchOp } from "../../decoder";
import { consume } from "./allowance";
import { NO_ASK, NO_BID } from "./book";
import { takerFee } from "./fees";
import type { Order } from "./model";
import { fillReport } from "./reports";
import { cancelResting, openDelete } from "./resting";
import type { EngineState } from "./state";
import type { MatchKindName } from "./types";

// Hot paths read these locals: the transpiled re-exports of ../../decoder are getter chains.
const K_TAKER_BUYS = MatchKind.TAKER_BUYS;
const K_TAKER_SELLS = MatchKind.TAKER_SELLS;
const K_MINT = MatchKind.MINT;
const K_MERGE = MatchKind.MERGE;
const MATCH_KIND_NAMES: readonly MatchKindName[] = ["TAKER_BUYS", "TAKER_SELLS", "MINT", "MERGE"];
const BID_END = NO_BID;
const ASK_END = NO_ASK;
// Hot path: imported functions are called through these locals (transpiled CommonJS imports are getter chains).
const feeOf = takerFee;
const consumeSide = consume;
const fillReportOf = fillReport;
const unrest = cancelResting;
const unlinkResting = openDelete;

/** Largest size whose notional size * priceBps (priceBps <= 10000) is below 2^53, so exact in a double. */
const EXACT_SIZE = 900_719_925_474n;

/**
 * floor(size * priceBps / 10000) for 0 <= size, 0 <= priceBps <= 10000 (the lock of a resting buy). Below EXACT_SIZE the
 * integer arithmetic runs on doubles, where every value is an exact integer (one BigInt allocated instead of three).
 */
export function notional(size: bigint, priceBps: number): bigint {
  if (size > EXACT_SIZE) return (size * BigInt(priceBps)) / 10_000n;
  const x = Number(size) * priceBps;
  return BigInt((x - (x % 10_000)) / 10_000);
}

/** Size a taker could fill now (other accounts' resting orders at crossing prices). */
export function fillable(t: Order): bigint {
  const book = t.mkt.book;
  let sum = 0n;
  if (t.side === 0) {
    for (let p = book.bestAsk; p <= t.y && p < ASK_END; p++) {
      for (let m = book.asks[p]?.head ?? null; m; m = m.next) if (m.acct !== t.acct) if ((sum += m.rem) >= t.size) return sum;
    }
  } else {
    for (let p = book.bestBid; p >= t.y && p > BID_END; p--) {
      for (let m = book.bids[p]?.head ?? null; m; m = m.next) if (m.acct !== t.acct) if ((sum += m.rem) >= t.size) return sum;
    }
  }
  return sum;
}

/** Fills taker `t` against the opposite side while it crosses and has a remainder. */
export function match(s: EngineState, t: Order, at: number): void {
  const book = t.mkt.book;
  if (t.side === 0) {
    while (t.rem > 0n && book.bestAsk <= t.y) {
      let m = book.asks[book.bestAsk]!.head;
      while (m && t.rem > 0n) {
        const next = m.next;
        if (m.acct === t.acct) unrest(s, m, "cancelled", "self_trade_prevention", at);
        else fill(s, t, m, at);
        m = next;
      }
    }
  } else {
    while (t.rem > 0n && book.bestBid >= t.y) {
      let m = book.bids[book.bestBid]!.head;
      while (m && t.rem > 0n) {
        const next = m.next;
        if (m.acct === t.acct) unrest(s, m, "cancelled", "self_trade_prevention", at);
        else fill(s, t, m, at);
        m = next;
      }
    }
  }
}

function fill(s: EngineState, t: Order, m: Order, at: number): void {
  const f = t.rem < m.rem ? t.rem : m.rem;
  const mkt = t.mkt;
  const u = s.u;
  const same = t.outcome === m.outcome;
  const kind = same ? (t.action === "buy" ? K_TAKER_BUYS : K_TAKER_SELLS) : t.action === "buy" ? K_MINT : K_MERGE;
  const takerPrice = same ? m.price : 10_000 - m.price;
  const fee = feeOf(mkt.feeModel, takerPrice, f, mkt.takerFeeBps);
  // Maker: release the lock of the filled part before it pays.
  u.saveOrder(m);
  m.rem -= f;
  m.filled += f;
  m.updatedAt = at;
  const newRes = m.action === "buy" ? notional(m.rem, m.price) : m.rem;
  const mb = m.acct.bals.get(m.resAsset)!;
  u.saveBal(mb);
  mb.r -= m.res - newRes;
  m.res = newRes;
  const op: MatchOp = { type: "MATCH", maker: m.acct.addr, taker: t.acct.addr, marketId: mkt.id, side: m.outcome, kind, shares: f, priceBps: m.price, fee };
  s.emit(op);
  t.rem -= f;
  t.filled += f;
  t.updatedAt = at;
  consumeSide(s, t.acct, at);
  consumeSide(s, m.acct, at);
  const tradeId = s.tradeId();
  const kindName = MATCH_KIND_NAMES[kind]!;
  if (m.rem === 0n) {
    m.status = "filled";
    mkt.book.remove(m);
    unlinkResting(s, m);
  } else m.status = "partially_filled";
  t.status = t.rem === 0n ? "filled" : "partially_filled";
  fillReportOf(s, m, at, tradeId, m.price, f, 0n, "maker", kindName, t.id);
  fillReportOf(s, t, at, tradeId, takerPrice, f, fee, "taker", kindName, m.id);
}
