/**
 * Off-chain LMSR pricing that reproduces contracts/markets/LmsrMarket.sol to the base unit.
 *
 * Units (the contract's):
 * - shares (`q[i]`, `shares`) and collateral amounts (`cost`, `proceeds`, `fee`, `seed`, `b`) are bigint in the
 *   collateral's smallest unit (PM and USDC: 6 decimals). One winning share redeems for one base unit, so
 *   1_000_000n shares pay out 1 PM.
 * - prices are WAD (1e18 = probability 1); `cost(state)` is C(q) scaled by WAD (base units * 1e18), as `_costWad`.
 * - fee rates are integer basis points.
 *
 * Every function mirrors the contract's integer steps (solady expWad/lnWad ported in wad-math.ts), so the same
 * inputs give the same integers, including the rounding in the market's favour: buy cost rounds up and sell proceeds
 * round down, each with one extra base unit of margin, and exit fees round up.
 */
import { ceilDiv, exitFee, BPS } from "./fees";
import { expWad, lnWad, WAD } from "./wad-math";

export { WAD } from "./wad-math";

/** A market's pricing state: liquidity parameter `b` and outstanding shares per outcome (2 or 3 entries). */
export interface LmsrState {
  b: bigint;
  q: bigint[];
}

/** The LMSR buy fee: always 0 (LmsrMarket.buyFeeBps is a constant). */
export const LMSR_BUY_FEE_BPS = 0;

function checkState(s: LmsrState): void {
  if (s.b <= 0n) throw new RangeError("b must be > 0");
  if (s.q.length < 2 || s.q.length > 3) throw new RangeError("an LMSR market has 2 or 3 outcomes");
  for (const x of s.q) if (x < 0n) throw new RangeError("outstanding shares must be >= 0");
}

function checkOutcome(s: LmsrState, outcome: number): void {
  if (!Number.isInteger(outcome) || outcome < 0 || outcome >= s.q.length) throw new RangeError(`invalid outcome ${outcome}`);
}

function checkShares(shares: bigint): void {
  if (shares <= 0n) throw new RangeError("shares must be > 0");
}

/** b = seed * 1e18 / lnWad(n * 1e18), as the LmsrMarket constructor (floor). */
export function bFromSeed(seed: bigint, outcomes: number): bigint {
  if (outcomes !== 2 && outcomes !== 3) throw new RangeError("an LMSR market has 2 or 3 outcomes");
  if (seed <= 0n) throw new RangeError("seed must be > 0");
  return (seed * WAD) / lnWad(BigInt(outcomes) * WAD);
}

/** _exps: exp(q_i/b - max) in WAD, their sum, and the max exponent. */
function exps(s: LmsrState): { e: bigint[]; sum: bigint; m: bigint } {
  const x = s.q.map((qi) => (qi * WAD) / s.b);
  let m = 0n;
  for (const xi of x) if (xi > m) m = xi;
  const e = x.map((xi) => expWad(xi - m));
  return { e, sum: e.reduce((a, v) => a + v, 0n), m };
}

/** C(q) * 1e18 in base units (the contract's `_costWad`): b * (max_i q_i/b + ln Σ exp(q_i/b - max)). */
export function cost(state: LmsrState): bigint {
  checkState(state);
  const { sum, m } = exps(state);
  const inner = m + lnWad(sum);
  if (inner < 0n) throw new RangeError("negative cost"); // uint256 cast would revert on chain
  return state.b * inner;
}

/** Instantaneous prices in WAD, as `prices()` (floor; they sum to 1e18 within a few wei). */
export function prices(state: LmsrState): bigint[] {
  checkState(state);
  const { e, sum } = exps(state);
  return e.map((ei) => (ei * WAD) / sum);
}

/** Price of one outcome in WAD. */
export function priceWad(state: LmsrState, outcome: number): bigint {
  checkOutcome(state, outcome);
  return prices(state)[outcome]!;
}

/** The state after `deltaShares` (positive: bought, negative: sold or redeemed) of `outcome`. Pure. */
export function applyTrade(state: LmsrState, outcome: number, deltaShares: bigint): LmsrState {
  checkState(state);
  checkOutcome(state, outcome);
  const q = [...state.q];
  q[outcome] = q[outcome]! + deltaShares;
  if (q[outcome]! < 0n) throw new RangeError(`cannot remove ${-deltaShares} shares of outcome ${outcome}: only ${state.q[outcome]} outstanding`);
  return { b: state.b, q };
}

export interface BuyQuote {
  /** Total collateral the buyer pays, fee included (`quoteBuy`). */
  cost: bigint;
  /** The buy fee inside `cost` (always 0 for LMSR). */
  fee: bigint;
  /** Price of the bought outcome after the trade, WAD. */
  priceAfter: bigint;
}

/** Cost of buying `shares` of `outcome`: ceil((C(q') - C(q)) / 1e18) + 1, as `quoteBuy`. */
export function quoteBuyShares(state: LmsrState, outcome: number, shares: bigint): BuyQuote {
  checkShares(shares);
  const after = applyTrade(state, outcome, shares);
  const before = cost(state);
  const delta = cost(after) - before;
  if (delta < 0n) throw new RangeError("cost decreased on a buy (the contract would revert)");
  return { cost: ceilDiv(delta, WAD) + 1n, fee: 0n, priceAfter: priceWad(after, outcome) };
}

/**
 * The most shares of `outcome` whose cost (fee included) fits in `budget`, with its quote; 0 shares (and a null
 * quote) when not even one base unit of shares fits. Exponential then binary search over quoteBuyShares itself, so
 * the answer is one the contract accepts with maxCost = budget.
 */
export function quoteBuyForCost(state: LmsrState, outcome: number, budget: bigint): { shares: bigint; quote: BuyQuote | null } {
  checkState(state);
  checkOutcome(state, outcome);
  if (budget < 0n) throw new RangeError("budget must be >= 0");
  const fits = (s: bigint) => {
    const qt = quoteBuyShares(state, outcome, s);
    return qt.cost + qt.fee <= budget ? qt : null;
  };
  let best = fits(1n);
  if (!best) return { shares: 0n, quote: null };
  // cost(s) >= s * price, so at most budget / price shares fit; doubling finds a bound that does not fit.
  let lo = 1n;
  let hi = 2n;
  for (let f = fits(hi); f; f = fits(hi)) {
    lo = hi;
    best = f;
    hi *= 2n;
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    const f = fits(mid);
    if (f) {
      lo = mid;
      best = f;
    } else hi = mid;
  }
  return { shares: lo, quote: best };
}

export interface SellQuote {
  /** Net collateral paid to the seller, after the exit fee (`quoteSell`). */
  proceeds: bigint;
  /** Sell exit fee, to the treasury. */
  fee: bigint;
  /** Price of the sold outcome after the trade, WAD. */
  priceAfter: bigint;
}

/**
 * Proceeds of selling `shares` of `outcome`, as `quoteSell`: gross = floor((C(q) - C(q')) / 1e18) - 1 (not below 0),
 * fee = ceil(gross * sellExitFeeBps / 10000), proceeds = gross - fee.
 */
export function quoteSell(state: LmsrState, outcome: number, shares: bigint, sellExitFeeBps: number): SellQuote {
  checkShares(shares);
  const after = applyTrade(state, outcome, -shares);
  const diff = cost(state) - cost(after);
  if (diff < 0n) throw new RangeError("cost increased on a sell (the contract would revert)");
  let gross = diff / WAD;
  gross = gross > 0n ? gross - 1n : 0n;
  const fee = exitFee(gross, sellExitFeeBps);
  return { proceeds: gross - fee, fee, priceAfter: priceWad(after, outcome) };
}

/** Redemption of `shares` winning shares: fee = ceil(shares * winningsExitFeeBps / 10000), net = shares - fee. */
export function payout(shares: bigint, winningsExitFeeBps: number): { net: bigint; fee: bigint } {
  const fee = exitFee(shares, winningsExitFeeBps);
  return { net: shares - fee, fee };
}

/** Redemption after a void: every share of every outcome pays floor(shares / n), no fee. */
export function voidPayout(shares: bigint, outcomes: number): bigint {
  if (shares < 0n) throw new RangeError("shares must be >= 0");
  return shares / BigInt(outcomes);
}

/**
 * The worst amount a trader should accept given a quote and a slippage tolerance, to pass as the contract's limit:
 * - "pay" (a buy's maxCost): ceil(quoted * (10000 + slippageBps) / 10000);
 * - "receive" (a sell's minProceeds): floor(quoted * (10000 - slippageBps) / 10000).
 * Rounding widens the tolerance by less than one base unit, never narrows it.
 */
export function slippageLimit(quoted: bigint, slippageBps: number, side: "pay" | "receive"): bigint {
  if (quoted < 0n) throw new RangeError("quoted must be >= 0");
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > 10_000) throw new RangeError("slippageBps must be an integer in 0..10000");
  const s = BigInt(slippageBps);
  return side === "pay" ? ceilDiv(quoted * (BPS + s), BPS) : (quoted * (BPS - s)) / BPS;
}

/** Whether an executed amount is within the limit `slippageLimit` gives for the quote. */
export function withinSlippage(quoted: bigint, actual: bigint, slippageBps: number, side: "pay" | "receive"): boolean {
  const limit = slippageLimit(quoted, slippageBps, side);
  return side === "pay" ? actual <= limit : actual >= limit;
}
