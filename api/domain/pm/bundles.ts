/**
 * The PM bundles sold over x402 (docs/pm-purchase.md): a fixed, published list. A purchase names one bundle by its PM
 * amount; any other amount is PURCHASE_NOT_A_BUNDLE. Every bundle also carries one permanent fill credit per
 * `PM_PER_FILL` whole PM (spec "Trade allowance": one per 2 purchased PM). Prices are integer USD cents; the USDC
 * price is cents x 10^4 base units (USDC has 6 decimals).
 */

/** Whole PM per permanent fill credit (spec: one credit per 2 purchased PM). */
export const PM_PER_FILL = 2;
/** PM and USDC both have 6 decimals. */
export const PM_UNIT = 1_000_000n;
const USDC_PER_CENT = 10_000n;

export interface PmBundle {
  /** Whole PM credited. */
  pm: number;
  usdCents: number;
  /** At most one bundle is featured (spec `featured?: true on at most one rung`). */
  featured?: true;
}

/** The published ladder; changing it changes prices for new purchases only (a purchase row keeps what it paid). */
export const PM_BUNDLES: readonly PmBundle[] = Object.freeze([
  { pm: 1_000, usdCents: 100 },
  { pm: 6_000, usdCents: 500, featured: true },
  { pm: 15_000, usdCents: 1_000 },
]);

export function bundleOf(pm: bigint): PmBundle | undefined {
  return PM_BUNDLES.find((b) => BigInt(b.pm) === pm);
}

/** PM base units a bundle credits. */
export const pmBaseUnits = (b: PmBundle): bigint => BigInt(b.pm) * PM_UNIT;
/** USDC base units a bundle costs. */
export const usdcPrice = (b: PmBundle): bigint => BigInt(b.usdCents) * USDC_PER_CENT;
/** Permanent fill credits a bundle adds: floor(pm / PM_PER_FILL). */
export const fillsOf = (b: PmBundle): number => Math.floor(b.pm / PM_PER_FILL);

/** A bundle as the spec's `purchase.bundles` rung (usd is display only; usdCents is the price). */
export function bundleView(b: PmBundle) {
  return {
    usd: b.usdCents / 100,
    usdCents: b.usdCents,
    pm: b.pm,
    fills: fillsOf(b),
    ...(b.featured ? { featured: true as const } : {}),
    priceAtomic: usdcPrice(b).toString(),
  };
}
