/**
 * The venue's default fee schedule (`GET /discover/fees`), stamped on markets created without explicit rates.
 * Ours: the LMSR contract has no factory defaults (each createMarket names its exit fees) and no relayer pricing
 * module publishes any yet; when one does, import its values here. Every value is an integer in basis points.
 */
export const FEE_DEFAULTS = {
  lmsr: { buyFeeBps: 0, sellExitFeeBps: 100, winningsExitFeeBps: 0 },
  orderbook: { feePolicyVersion: "notional-v1", placeFeeBps: 0, routerTakerFeeBps: 100, operatorBatchFeeBps: 100, winningsExitFeeBps: 0 },
} as const;

/** Contract cap of any fee (LmsrFactory.MAX_FEE_BPS). */
export const MAX_FEE_BPS = 1_000;

export function buildFees(chainId: number) {
  return {
    chainId,
    lmsr: { ...FEE_DEFAULTS.lmsr },
    orderbook: { ...FEE_DEFAULTS.orderbook },
    note: "Defaults for new markets. Existing markets keep the rates stamped on them: read a market's tradingRules.",
    notes: [
      "The taker fee applies identically to wallet-router market orders and operator-matched signed limit fills.",
      "notional-v1 charges takerFeeBps of the fill's notional; shares-v2 charges it of the filled shares.",
    ],
  };
}
