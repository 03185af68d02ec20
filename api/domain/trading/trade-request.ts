/**
 * What an agent asks of a trade lane: the bodies of POST /trade/quote and /trade/prepare (zod, strict) and the
 * parsed requests the lanes take (amounts as bigint). docs/trading.md "Trading at a quoted price".
 */
import { z } from "zod";
import { MAX_ORDER_SIZE } from "../../../relayer/engine";
import { integerString } from "../../platform/schemas/integer-string";
import { TRADE_DEFAULTS } from "./trade-defaults";

const units = integerString({ what: "amount" });

export const tradeBody = z.strictObject({
  market: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .describe("market address (LmsrMarket for the onchain lane)"),
  outcome: z.number().int().min(0).max(2).describe("0 = YES, 1 = NO (binary); 0..2 ternary"),
  side: z.enum(["buy", "sell"]),
  shares: integerString({ min: 1n, max: MAX_ORDER_SIZE, maxDigits: 19, what: "shares" }).describe("shares in collateral base units (1 share pays 1 base unit)"),
  slippageBps: z.number().int().min(0).max(TRADE_DEFAULTS.slippageBpsMax).default(TRADE_DEFAULTS.slippageBpsDefault),
});
export type TradeBody = z.output<typeof tradeBody>;

export const prepareBody = tradeBody.extend({
  trader: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .optional()
    .describe("signing wallet; default the agent's bound wallet"),
  // Committed lane only: the quote's bound echoed back, so a market that moved after the quote is refused
  // (CONFLICT reason SLIPPAGE) instead of re-priced (docs/venue.md).
  limitPriceBps: integerString({ min: 1n, max: 9_999n, maxDigits: 4, what: "limitPriceBps" })
    .optional()
    .describe("ORDERBOOK (committed lane): the IOC limit, the quote's limitPriceBps"),
  maxCost: units.optional().describe("automated buy (committed lane): the most PM to pay, the quote's maxCost"),
  minProceeds: units.optional().describe("automated sell (committed lane): the least PM to receive, the quote's minProceeds"),
});
export type PrepareBody = z.output<typeof prepareBody>;

export interface TradeRequest {
  /** Lower-case market address. */
  market: string;
  outcome: number;
  side: "buy" | "sell";
  /** Shares in base units. */
  shares: bigint;
  slippageBps: number;
}

/** The quote's bound echoed by the agent (committed lane, docs/venue.md): the one matching the model and the side. */
export interface PrepareBounds {
  /** ORDERBOOK: the IOC limit, the quote's `limitPriceBps` (outcome's own price, 1..9999). */
  limitPriceBps?: number;
  /** automated buy: the most PM the trade may cost, the quote's `maxCost`. */
  maxCost?: bigint;
  /** automated sell: the least PM the trade must return, the quote's `minProceeds`. */
  minProceeds?: bigint;
}

export interface PrepareRequest extends TradeRequest, PrepareBounds {
  /** Onchain lane: the signing wallet as given (default: the agent's bound wallet). */
  trader?: string;
}

/** The names of the bounds, for the lane that takes none of them. */
export const BOUND_FIELDS = ["limitPriceBps", "maxCost", "minProceeds"] as const;

export const toTradeRequest = (b: TradeBody): TradeRequest => ({
  market: b.market.toLowerCase(),
  outcome: b.outcome,
  side: b.side,
  shares: BigInt(b.shares),
  slippageBps: b.slippageBps,
});

export function toPrepareRequest(b: PrepareBody): PrepareRequest {
  return {
    ...toTradeRequest(b),
    ...(b.trader !== undefined ? { trader: b.trader } : {}),
    ...(b.limitPriceBps !== undefined ? { limitPriceBps: Number(b.limitPriceBps) } : {}),
    ...(b.maxCost !== undefined ? { maxCost: BigInt(b.maxCost) } : {}),
    ...(b.minProceeds !== undefined ? { minProceeds: BigInt(b.minProceeds) } : {}),
  };
}
