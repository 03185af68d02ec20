/**
 * Taker fees of an order-book fill: the shared pricing module (relayer/pricing/fees.ts) computes them, so the
 * engine, quotes and the contracts round the same way. `priceBps` is the taker's own-outcome execution price.
 */
import { exitFee, MAX_FEE_BPS, takerFee as pricingTakerFee } from "../pricing/fees";
import type { FeeModel } from "./types";

export { exitFee, MAX_FEE_BPS };

/** notional-v1: ceil(price * size / 10000 * feeBps / 10000). */
export function notionalFee(priceBps: number, size: bigint, feeBps: number): bigint {
  return pricingTakerFee("notional-v1", feeBps, priceBps, size);
}

/** shares-v2: ceil(feeBps * min(p, 10000 - p) * size / 1e8). */
export function sharesFee(priceBps: number, size: bigint, feeBps: number): bigint {
  return pricingTakerFee("shares-v2", feeBps, priceBps, size);
}

export function takerFee(model: FeeModel, priceBps: number, size: bigint, feeBps: number): bigint {
  if (feeBps === 0) return 0n;
  return pricingTakerFee(model, feeBps, priceBps, size);
}
