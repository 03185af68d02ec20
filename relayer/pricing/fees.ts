/**
 * Fee arithmetic and the venue's default fee schedule (`GET /discover/fees`).
 *
 * Units: fees and amounts are bigint in the collateral's smallest unit (PM and USDC: 6 decimals); rates are integer
 * basis points (1 bps = 0.01 %); prices are basis points of one unit per share (1..9999). Every fee rounds UP, once,
 * at the end: the venue never pays a rounding remainder. See docs/fees.md.
 */

export const BPS = 10_000n;

/** Taker-fee models of the order book. `notional-v1` is the default when a market names none. */
export type FeePolicyVersion = "notional-v1" | "shares-v2";
export const FEE_POLICY_VERSIONS: readonly FeePolicyVersion[] = ["notional-v1", "shares-v2"];

/** Contract cap of any stamped fee (LmsrFactory.MAX_FEE_BPS); we apply the same cap off chain. */
export const MAX_FEE_BPS = 1_000;

/**
 * Defaults for new markets. The LMSR contracts have no factory defaults (every createMarket names its exit fees and
 * buyFeeBps is the constant 0), so these are the venue's choices; api/domain/markets/fee-defaults.ts publishes them.
 * Existing markets keep the rates stamped on them.
 */
export const FEE_DEFAULTS = {
  lmsr: { buyFeeBps: 0, sellExitFeeBps: 100, winningsExitFeeBps: 0 },
  orderbook: { feePolicyVersion: "notional-v1", placeFeeBps: 0, routerTakerFeeBps: 100, operatorBatchFeeBps: 100, winningsExitFeeBps: 0 },
} as const satisfies {
  lmsr: { buyFeeBps: 0; sellExitFeeBps: number; winningsExitFeeBps: number };
  orderbook: { feePolicyVersion: FeePolicyVersion; placeFeeBps: 0; routerTakerFeeBps: number; operatorBatchFeeBps: number; winningsExitFeeBps: number };
};

/** ceil(a / d) for a >= 0, d > 0. */
export function ceilDiv(a: bigint, d: bigint): bigint {
  if (a < 0n || d <= 0n) throw new RangeError("ceilDiv needs a >= 0 and d > 0");
  return a === 0n ? 0n : (a - 1n) / d + 1n;
}

function checkBps(name: string, v: number, max: number): bigint {
  if (!Number.isInteger(v) || v < 0 || v > max) throw new RangeError(`${name} must be an integer in 0..${max}, got ${v}`);
  return BigInt(v);
}

function checkAmount(name: string, v: bigint): void {
  if (v < 0n) throw new RangeError(`${name} must be >= 0, got ${v}`);
}

/**
 * The order-book taker fee of a fill of `shares` at `priceBps` (the maker pays none).
 * - notional-v1: feeBps of the notional priceBps*shares/10000, i.e. ceil(priceBps*shares*feeBps / 1e8) — one ceil
 *   over the exact product, so no intermediate rounding.
 * - shares-v2: feeBps of the shares weighted by the distance to certainty, ceil(feeBps*min(p, 10000-p)*shares / 1e8):
 *   symmetric in YES/NO, so buying YES at p costs the same fee as selling NO at 10000-p.
 */
export function takerFee(model: FeePolicyVersion, feeBps: number, priceBps: number, shares: bigint): bigint {
  const f = checkBps("feeBps", feeBps, Number(BPS));
  if (!Number.isInteger(priceBps) || priceBps < 1 || priceBps > 9999) throw new RangeError(`priceBps must be an integer in 1..9999, got ${priceBps}`);
  checkAmount("shares", shares);
  const p = BigInt(priceBps);
  switch (model) {
    case "notional-v1":
      return ceilDiv(p * shares * f, BPS * BPS);
    case "shares-v2":
      return ceilDiv(f * (p < BPS - p ? p : BPS - p) * shares, BPS * BPS);
    default:
      throw new RangeError(`unknown fee policy ${String(model)}`);
  }
}

/** An exit fee (LMSR sell exit, winnings exit) of `amount`: ceil(amount*bps/10000), as the contracts compute it. */
export function exitFee(amount: bigint, bps: number): bigint {
  checkAmount("amount", amount);
  return ceilDiv(amount * checkBps("bps", bps, Number(BPS)), BPS);
}
