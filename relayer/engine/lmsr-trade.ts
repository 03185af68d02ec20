/**
 * Trades against an LMSR market's pool and their quotes, priced by relayer/pricing/lmsr.ts (the contract's integer
 * math, rounding in the market's favour): BUY by shares or by budget, SELL by shares, `limit` the slippage bound.
 * A quote runs the same integers as the trade and changes nothing.
 */
import { isOutcomeIndex } from "../../decoder";
import { consume, requireAllowance } from "./allowance";
import type { Market } from "./model";
import { prices, quoteBuyForCost, quoteBuyShares, quoteSell, type BuyQuote, type LmsrState } from "../pricing/lmsr";
import { invalid, reject } from "./rejection";
import { lmsrFillReport } from "./reports";
import type { EngineState } from "./state";
import type { LmsrOutcome, LmsrQuote, LmsrTradeCommand, LmsrTradeResult } from "./types";
import { MAX_ORDER_SIZE, addressOf } from "./validation";
import { openMarket } from "./markets";

const positive = (x: unknown): boolean => typeof x === "bigint" && x > 0n && x <= MAX_ORDER_SIZE;

/** A trade against the pool of an LMSR market (LMSR_TRADE op). */
export function lmsrTrade(s: EngineState, c: LmsrTradeCommand, at: number): LmsrTradeResult {
  const acct = s.acctFor(addressOf(c.account, "account"), at);
  const m = openMarket(s, c.marketId, at);
  const st = m.lmsr;
  if (!st) return invalid(`market ${m.idStr} is not an LMSR market`);
  if (!isOutcomeIndex(c.outcome, m.outcomes)) return invalid(`outcome must be an integer 0..${m.outcomes - 1}`, { field: "outcome" });
  if (c.direction !== "BUY" && c.direction !== "SELL") return invalid("direction must be BUY or SELL");
  if (c.limit !== undefined && (typeof c.limit !== "bigint" || c.limit < 0n)) return invalid("limit must be a non-negative bigint");
  if (c.direction === "BUY" ? positive(c.shares) === positive(c.budget) : !positive(c.shares) || c.budget !== undefined) {
    return invalid(c.direction === "BUY" ? "BUY needs exactly one of shares or budget" : "SELL needs shares");
  }
  requireAllowance(s, acct, at, m.assets[c.outcome]!, c.direction === "SELL", c.shares, "no executed wallet-sides left in this period");
  const state = { b: st.b, q: st.q };
  let shares: bigint;
  let collateral: bigint;
  let fee: bigint;
  try {
    if (c.direction === "BUY") {
      if (c.budget !== undefined) {
        const r = quoteBuyForCost(state, c.outcome, c.budget);
        if (!r.quote) return reject("BUDGET_TOO_SMALL", "the budget buys no shares", {});
        shares = r.shares;
        collateral = r.quote.cost;
      } else {
        shares = c.shares!;
        collateral = quoteBuyShares(state, c.outcome, shares).cost;
      }
      fee = 0n;
      if (c.limit !== undefined && collateral > c.limit) reject("SLIPPAGE", "cost above the limit", { cost: collateral.toString() });
    } else {
      shares = c.shares!;
      if (shares > st.q[c.outcome]!) return reject("INSUFFICIENT_BALANCE", "more shares than outstanding", {});
      const q = quoteSell(state, c.outcome, shares, m.sellExitFeeBps);
      collateral = q.proceeds + q.fee;
      fee = q.fee;
      if (c.limit !== undefined && q.proceeds < c.limit) reject("SLIPPAGE", "proceeds below the limit", { proceeds: q.proceeds.toString() });
    }
  } catch (e) {
    if (e instanceof RangeError) return invalid(e.message);
    throw e;
  }
  const q = [...st.q];
  saveLmsr(s, m);
  q[c.outcome] = q[c.outcome]! + (c.direction === "BUY" ? shares : -shares);
  st.q = q;
  s.emit({ type: "LMSR_TRADE", account: acct.addr, marketId: m.id, side: c.outcome, direction: c.direction, shares, collateral, fee });
  consume(s, acct, at);
  const tradeId = s.tradeId();
  const net = c.direction === "BUY" ? collateral : collateral - fee;
  lmsrFillReport(s, acct, at, tradeId, m.idStr, c.outcome, c.direction === "BUY", shares, net, fee);
  return {
    tradeId,
    marketId: m.idStr,
    outcome: c.outcome,
    direction: c.direction,
    shares,
    collateral: net,
    fee,
    priceAfterWad: prices({ b: st.b, q })[c.outcome]!,
  };
}

/** Records the pool's outstanding shares for rollback (a trade replaces the array, never mutates it). */
function saveLmsr(s: EngineState, m: Market): void {
  const st = m.lmsr!;
  const q = st.q;
  s.u.fn(() => {
    st.q = q;
  });
}

function buyQuote(shares: bigint, q: BuyQuote): LmsrQuote {
  return { shares, collateral: q.cost, fee: q.fee, priceAfterWad: q.priceAfter };
}

/** The LMSR pricing state of an open-or-closed LMSR market and the outcome, or undefined (no such market/outcome). */
function lmsrOf(s: EngineState, marketId: bigint, outcome: number): { m: Market; state: LmsrState } | undefined {
  const m = s.markets.get(marketId);
  if (!m?.lmsr || !isOutcomeIndex(outcome, m.outcomes)) return undefined;
  return { m, state: { b: m.lmsr.b, q: m.lmsr.q } };
}

/** Quote by shares (see Engine.lmsrQuote). */
export function lmsrQuote(s: EngineState, marketId: bigint, outcome: LmsrOutcome, direction: "BUY" | "SELL", shares: bigint): LmsrQuote | undefined {
  const x = lmsrOf(s, marketId, outcome);
  if (!x || typeof shares !== "bigint" || shares <= 0n || shares > MAX_ORDER_SIZE) return undefined;
  try {
    if (direction === "BUY") return buyQuote(shares, quoteBuyShares(x.state, outcome, shares));
    if (shares > x.state.q[outcome]!) return undefined;
    const qt = quoteSell(x.state, outcome, shares, x.m.sellExitFeeBps);
    return { shares, collateral: qt.proceeds, fee: qt.fee, priceAfterWad: qt.priceAfter };
  } catch (e) {
    if (e instanceof RangeError) return undefined; // the pricing module refuses what the contract would revert on
    throw e;
  }
}

/** Quote of a BUY by cost (see Engine.lmsrQuoteForCost). */
export function lmsrQuoteForCost(s: EngineState, marketId: bigint, outcome: LmsrOutcome, budget: bigint): LmsrQuote | undefined {
  const x = lmsrOf(s, marketId, outcome);
  if (!x || typeof budget !== "bigint" || budget <= 0n || budget > MAX_ORDER_SIZE) return undefined;
  let r: ReturnType<typeof quoteBuyForCost>;
  try {
    r = quoteBuyForCost(x.state, outcome, budget);
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
  if (!r.quote) return { shares: 0n, collateral: 0n, fee: 0n, priceAfterWad: prices(x.state)[outcome]! };
  return buyQuote(r.shares, r.quote);
}
