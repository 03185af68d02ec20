/**
 * What the trade operations answer, as zod schemas: one discriminated union per operation, so /openapi.json and the MCP
 * tools' output schemas say exactly which fields each lane and pricing model returns (docs/trading.md "Trading at a
 * quoted price", docs/trading-onchain.md).
 *
 *   quote    lane: committed -> pricingModel: automated -> side: buy | sell;  ORDERBOOK;   onchain
 *   prepare  lane: committed (executed now)  -> pricingModel: automated -> side;  ORDERBOOK;   onchain (an intent to sign)
 *   intent   status: executed (with its execution) | prepared | submitted | failed (execution null)
 *
 * Amounts are integer strings in the collateral's base units, order-book prices basis-point strings, probabilities
 * numbers in 0..1. (MCP output schemas must be objects: api/transports/mcp/tools.ts gives a union of objects
 * `type: "object"`.)
 */
import { z } from "zod";
import { TRADE_DEFAULTS } from "./trade-defaults";

const Units = z.string().regex(/^\d+$/).describe("integer amount in the collateral's base units (shares: 1 share pays 1 base unit)");
const Bps = z
  .string()
  .regex(/^\d{1,4}$/)
  .describe("price of the outcome in basis points (1..9999; an average may round to 0)");
const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const Hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
const Probability = z.number().min(0).max(1);
const AveragePrice = z.number().min(0).describe("average price per share as a fraction of the collateral unit");
const Outcome = z.number().int().min(0).max(2).describe("0 = YES, 1 = NO (binary); 0..2 ternary");
const BookOutcome = z.number().int().min(0).max(1).describe("0 = YES, 1 = NO");
const Side = z.enum(["buy", "sell"]);
const IsoTime = z.string().describe("ISO 8601 instant");
const Slippage = z.number().int().min(0).max(TRADE_DEFAULTS.slippageBpsMax).describe("the slippage tolerance applied, basis points");

const committed = { lane: z.literal("committed"), market: Address };
const automated = { ...committed, pricingModel: z.literal("automated") };
const orderbook = { ...committed, pricingModel: z.literal("ORDERBOOK") };

// ---------------------------------------------------------------- quote

// Fields in the order the JSON carries them: lane and market, the model, outcome and side, then the amounts.
const automatedQuoteHead = { ...automated, outcome: Outcome };
const automatedQuoteTail = {
  shares: Units,
  fee: Units.describe("the pool's fee, included in cost / deducted from proceeds"),
  slippageBps: Slippage,
  averageProbability: AveragePrice,
  probabilityAfter: Probability,
};

/** Committed lane, automated (LMSR) market. */
export const automatedQuoteSchema = z.discriminatedUnion("side", [
  z.object({
    ...automatedQuoteHead,
    side: z.literal("buy"),
    ...automatedQuoteTail,
    cost: Units,
    maxCost: Units.describe("cost moved by slippageBps, rounded up: the prepare bound"),
  }),
  z.object({
    ...automatedQuoteHead,
    side: z.literal("sell"),
    ...automatedQuoteTail,
    proceeds: Units,
    minProceeds: Units.describe("proceeds moved by slippageBps, rounded down: the prepare bound"),
  }),
]);

/** Committed lane, ORDERBOOK market: the live book walked for `shares`. */
export const bookQuoteSchema = z.object({
  ...orderbook,
  outcome: BookOutcome,
  side: Side,
  shares: Units,
  fillableShares: Units.describe("what the book holds within reach"),
  notional: Units.describe("the cost of fillableShares before the fee"),
  fee: Units.describe("the taker fee the engine charges for these fills"),
  averagePriceBps: Bps.nullable(),
  worstPriceBps: Bps.nullable(),
  slippageBps: Slippage,
  limitPriceBps: Bps.nullable().describe("the worst level walked moved by slippageBps: the prepare bound; null on an empty side"),
});

/** Onchain lane: priced from the market's live state on chain; also the `quote` of a prepared intent. */
export const onchainQuoteSchema = z.object({
  lane: z.literal("onchain"),
  market: Address,
  chainId: z.number().int(),
  outcome: Outcome,
  side: Side,
  shares: Units,
  amount: Units.describe("buy: the cost; sell: the net proceeds"),
  fee: Units,
  averagePrice: AveragePrice,
  priceAfter: Probability,
  slippageBps: Slippage,
  limit: Units.describe("buy: the most to pay; sell: the least to receive (the intent's limit)"),
  collateral: z.object({ symbol: z.string(), token: Address, decimals: z.number().int(), router: Address }),
  quotedAt: IsoTime,
  recommendedRefreshMs: z.number().int(),
});

export const tradeQuoteSchema = z.discriminatedUnion("lane", [
  z.discriminatedUnion("pricingModel", [automatedQuoteSchema, bookQuoteSchema]),
  onchainQuoteSchema,
]);

// ---------------------------------------------------------------- prepare

const automatedExecutionHead = { ...automated, executed: z.literal(true), tradeId: z.string(), outcome: Outcome };
/** Prepare on the committed lane executes fills: like place-order it answers the allowance left (and X-Fills-Remaining). */
const fillsRemaining = z.number().int().describe("the agent's fill allowance after this call (also the X-Fills-Remaining header)");
const automatedExecutionTail = { fee: Units, limit: Units.describe("the bound the engine held the trade to"), probabilityAfter: Probability, fillsRemaining };

/** Committed lane, automated market: the trade, executed at once. */
export const automatedExecutionSchema = z.discriminatedUnion("side", [
  z.object({ ...automatedExecutionHead, side: z.literal("buy"), shares: Units, cost: Units, ...automatedExecutionTail }),
  z.object({ ...automatedExecutionHead, side: z.literal("sell"), shares: Units, proceeds: Units, ...automatedExecutionTail }),
]);

export const fillSchema = z.object({
  tradeId: z.string(),
  priceBps: Bps,
  size: Units,
  fee: Units,
  liquidity: z.literal("taker"),
  matchKind: z.enum(["TAKER_BUYS", "TAKER_SELLS", "MINT", "MERGE"]),
});

/** Committed lane, ORDERBOOK market: the IOC order, executed at once; its remainder is cancelled. */
export const bookExecutionSchema = z.object({
  ...orderbook,
  executed: z.boolean().describe("whether anything filled"),
  orderId: z.string(),
  status: z.enum(["filled", "cancelled"]).describe("the IOC's final status"),
  outcome: BookOutcome,
  side: Side,
  limitPriceBps: Bps,
  filledSize: Units,
  cancelledSize: Units,
  fills: z.array(fillSchema),
  fillsRemaining,
});

const intentSchema = z.object({
  trader: Address,
  market: Address,
  outcome: Outcome,
  isBuy: z.boolean(),
  amount: Units,
  limit: Units,
  deadline: z.string().regex(/^\d+$/).describe("unix seconds"),
  nonce: z.string().regex(/^\d+$/),
});

/** Onchain lane: the EIP-712 TradeIntent to sign, then POST /trade/submit. */
export const preparedIntentSchema = z.object({
  lane: z.literal("onchain"),
  market: Address,
  status: z.literal("prepared"),
  digest: Hash,
  router: Address,
  intent: intentSchema,
  typedData: z.object({
    domain: z.object({ name: z.literal("IntentRouter"), version: z.literal("1"), chainId: z.number().int(), verifyingContract: Address }),
    types: z.object({ TradeIntent: z.array(z.object({ name: z.string(), type: z.string() })) }),
    primaryType: z.literal("TradeIntent"),
    message: intentSchema,
  }),
  expiresAt: IsoTime,
  quote: onchainQuoteSchema,
  submit: z.object({ method: z.literal("POST"), path: z.literal("/trade/submit") }),
});

export const preparedTradeSchema = z.discriminatedUnion("lane", [
  z.discriminatedUnion("pricingModel", [automatedExecutionSchema, bookExecutionSchema]),
  preparedIntentSchema,
]);

// ---------------------------------------------------------------- intents

const intentViewId = { digest: Hash, lane: z.literal("onchain") };
const intentViewWhat = { market: Address, router: Address, intent: intentSchema, quote: onchainQuoteSchema };
const intentViewTail = {
  projection: z.enum(["ok", "unreachable"]).describe("unreachable: the indexer could not be asked, so an execution may not show yet"),
  createdAt: IsoTime,
  expiresAt: IsoTime,
};

/** GET /trade/intent/{digest}: executed once the indexer projected the router's IntentExecuted. */
export const tradeIntentSchema = z.discriminatedUnion("status", [
  z.object({
    ...intentViewId,
    status: z.literal("executed"),
    ...intentViewWhat,
    txHash: Hash,
    error: z.string().nullable(),
    execution: z.object({ txHash: Hash, blockNumber: z.number().int(), shares: Units, amount: Units, at: IsoTime }),
    ...intentViewTail,
  }),
  z.object({
    ...intentViewId,
    status: z.enum(["prepared", "submitted", "failed"]),
    ...intentViewWhat,
    txHash: Hash.nullable(),
    error: z.string().nullable(),
    execution: z.null(),
    ...intentViewTail,
  }),
]);

export const submittedIntentSchema = z.object({
  digest: Hash,
  status: z.enum(["submitted", "failed"]),
  txHash: Hash.nullable(),
  blockNumber: z.number().int().nullable(),
  error: z.string().nullable(),
});

export type AutomatedQuote = z.input<typeof automatedQuoteSchema>;
export type BookQuote = z.input<typeof bookQuoteSchema>;
export type OnchainQuote = z.input<typeof onchainQuoteSchema>;
export type TradeQuote = z.input<typeof tradeQuoteSchema>;
export type AutomatedExecution = z.input<typeof automatedExecutionSchema>;
export type BookExecution = z.input<typeof bookExecutionSchema>;
export type Fill = z.input<typeof fillSchema>;
export type TradeIntentMessage = z.input<typeof intentSchema>;
export type PreparedIntent = z.input<typeof preparedIntentSchema>;
export type PreparedTrade = z.input<typeof preparedTradeSchema>;
export type TradeIntentView = z.input<typeof tradeIntentSchema>;
export type SubmittedIntent = z.input<typeof submittedIntentSchema>;
