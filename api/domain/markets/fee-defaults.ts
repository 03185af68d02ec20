/**
 * The venue's default fee schedule as `GET /discover/fees` publishes it. The values live with the pricing rules
 * (relayer/pricing/fees.ts), so what is published is what the engine charges.
 */
import { FEE_DEFAULTS } from "../../../relayer/pricing/fees";

export { FEE_DEFAULTS };

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
