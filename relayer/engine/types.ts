/**
 * The engine's contract (docs/engine.md): configuration, commands, the typed result of each command type, the closed
 * set of rejection codes, execution reports and read views. Money and sizes are bigint smallest units; prices are
 * integer basis points.
 */
import type { Address } from "viem";
import type { CreditReason, JournalOp, OutcomeIndex } from "../../decoder";
import type { Lane, LifecycleCommand, LifecycleCommandResults, LifecycleEvent, LifecycleRejectDetails, LifecycleView } from "./lifecycle-types";

export type * from "./lifecycle-types";

export type CreditReasonName = keyof typeof CreditReason;

/** Finished orders kept per account (the default of EngineConfig.keepFinished): ~400 KB for an account at the bound. */
export const KEEP_FINISHED_ORDERS = 1_000;

export interface EngineConfig {
  /** Receives taker fees and resolution exit fees. */
  treasury: Address;
  allowance: { enabled: boolean; freePerPeriod: number; periodMs: number };
  /**
   * Finished orders kept per account for lookups and clientOrderId dedupe (docs/engine.md#retention; default
   * KEEP_FINISHED_ORDERS). A rule of the journal like any other: a journal rebuilds only under the value it ran with.
   */
  keepFinished?: number;
}

/** Outcome of an order-book order: order books are binary (0 = YES, 1 = NO). */
export type Outcome = 0 | 1;
/** Outcome index of an LMSR market (binary 0..1 or ternary 0..2); an order-book Outcome is one. */
export type LmsrOutcome = OutcomeIndex;
export type OrderAction = "buy" | "sell";
export type TimeInForce = "GTC" | "GTD" | "IOC" | "FOK";
export type OrderStatus = "open" | "partially_filled" | "filled" | "cancelled" | "expired";
export type Pricing = "ORDERBOOK" | "LMSR";
export type FeeModel = "notional-v1" | "shares-v2";
export type MatchKindName = "TAKER_BUYS" | "TAKER_SELLS" | "MINT" | "MERGE";

/** One order of placeOrder / placeOrders / replaceQuotes (without account and market for the batch forms). */
export interface OrderSpec {
  clientOrderId?: string;
  outcome: Outcome;
  action: OrderAction;
  priceBps: number;
  size: bigint;
  tif: TimeInForce;
  expiresAt?: number;
  postOnly?: boolean;
}

export interface OpenAccountCommand {
  type: "openAccount";
  account: Address;
  signupAt: number;
}
export interface CreditCommand {
  type: "credit";
  account: Address;
  amount: bigint;
  reason: CreditReason | CreditReasonName;
}
export interface CreateMarketCommand {
  type: "createMarket";
  marketId: bigint;
  pricing: Pricing;
  /** ORDERBOOK: 2. LMSR: 2 or 3. */
  outcomes: number;
  feeModel: FeeModel;
  takerFeeBps: number;
  sellExitFeeBps: number;
  winningsExitFeeBps: number;
  /** LMSR only: the funder pays `seed` into the market's pool (MARKET_SEED); b = seed / ln(outcomes). */
  seed?: bigint;
  funder?: Address;
  /**
   * The market's creator: the market gets a lifecycle (docs/lifecycle.md). The creation bond is locked from its PM
   * (BOND_LOCK) and, on a committed LMSR market, the seed comes from it (funder = creator).
   */
  creator?: Address;
  /** With a creator: when proposals may start (default: the command's `at`) and when trading stops (epoch ms). */
  openTime?: number;
  closeTime?: number;
  /** Default "committed". An "onchain" market has no book or pool on the ledger: only its lifecycle, bond and vote. */
  lane?: Lane;
}
/**
 * A trade against an LMSR market's pool. BUY: `shares`, or `budget` (the most shares whose cost fits); `limit` is the
 * maxCost. SELL: `shares`; `limit` is the minimum net proceeds.
 */
export interface LmsrTradeCommand {
  type: "lmsrTrade";
  account: Address;
  marketId: bigint;
  /** 0..outcomes-1. */
  outcome: LmsrOutcome;
  direction: "BUY" | "SELL";
  shares?: bigint;
  budget?: bigint;
  limit?: bigint;
}
export interface PlaceOrderCommand extends OrderSpec {
  type: "placeOrder";
  account: Address;
  marketId: bigint;
}
export interface PlaceOrdersCommand {
  type: "placeOrders";
  account: Address;
  marketId: bigint;
  orders: OrderSpec[];
}
export interface ReplaceQuotesCommand {
  type: "replaceQuotes";
  account: Address;
  marketId: bigint;
  orders: OrderSpec[];
}
export interface CancelOrderCommand {
  type: "cancelOrder";
  account: Address;
  orderId?: string;
  clientOrderId?: string;
}
export interface CancelAllCommand {
  type: "cancelAll";
  account: Address;
  marketId?: bigint;
}
export interface ResolveMarketCommand {
  type: "resolveMarket";
  marketId: bigint;
  winningOutcome: number;
}
export interface VoidMarketCommand {
  type: "voidMarket";
  marketId: bigint;
}
export interface AddFillCreditsCommand {
  type: "addFillCredits";
  account: Address;
  fills: number;
}
/** Expires the GTD orders due at `at` and nothing else (every command does that first; this one exists for the timer). */
export interface ExpireOrdersCommand {
  type: "expireOrders";
}

export type Command =
  | OpenAccountCommand
  | CreditCommand
  | CreateMarketCommand
  | PlaceOrderCommand
  | PlaceOrdersCommand
  | ReplaceQuotesCommand
  | CancelOrderCommand
  | CancelAllCommand
  | ResolveMarketCommand
  | VoidMarketCommand
  | AddFillCreditsCommand
  | ExpireOrdersCommand
  | LmsrTradeCommand
  | LifecycleCommand;

export type ReportKind = "new" | "fill" | "cancelled" | "expired";
export type CancelReason = "user" | "cancel_all" | "replaced" | "self_trade_prevention" | "ioc_remainder" | "fok_not_fillable" | "market_closed";

/** One execution report: every order state change and every fill, per affected account, gap-free `seq`. */
export interface ExecutionReport {
  account: Address;
  seq: number;
  at: number;
  kind: ReportKind;
  orderId: string;
  clientOrderId?: string;
  marketId: string;
  /** Order status after this event. */
  status: OrderStatus;
  /** Order-book orders: 0 or 1; LMSR fills: the traded outcome index (0..2). */
  outcome: LmsrOutcome;
  action: OrderAction;
  priceBps: number;
  size: bigint;
  filledSize: bigint;
  remainingSize: bigint;
  tif: TimeInForce;
  /** cancelled only. */
  reason?: CancelReason;
  /** Fill fields (kind "fill"). */
  tradeId?: string;
  fillPriceBps?: number;
  fillSize?: bigint;
  fee?: bigint;
  liquidity?: "maker" | "taker";
  matchKind?: MatchKindName;
  counterOrderId?: string;
}

/** Public view of an order. */
export interface OrderView {
  orderId: string;
  clientOrderId?: string;
  account: Address;
  marketId: string;
  outcome: Outcome;
  action: OrderAction;
  priceBps: number;
  size: bigint;
  filledSize: bigint;
  remainingSize: bigint;
  tif: TimeInForce;
  expiresAt?: number;
  postOnly: boolean;
  status: OrderStatus;
  /** Collateral (buy) or shares (sell) locked while the order rests. */
  reserved: bigint;
  createdAt: number;
  updatedAt: number;
}

export interface AllowanceView {
  enabled: boolean;
  freePerPeriod: number;
  freeUsed: number;
  freeRemaining: number;
  paidRemaining: number;
  remaining: number;
  periodStartsAt: number;
  periodEndsAt: number;
  durationDays: number;
}

/** One balance of an account: `available = total - reserved`. */
export interface BalanceView {
  assetId: bigint;
  total: bigint;
  reserved: bigint;
  available: bigint;
}

/** One aggregated price level of a book, in YES terms. */
export interface BookLevel {
  priceBps: number;
  size: bigint;
  orders: number;
}

export interface BookDepth {
  bids: BookLevel[];
  asks: BookLevel[];
}

/** "closed": trading stopped (closeTime, or the creator's proposal) and the market is not final yet. */
export type MarketStatus = "open" | "closed" | "resolved" | "voided";

export interface MarketView {
  marketId: string;
  pricing: Pricing;
  outcomes: number;
  feeModel: FeeModel;
  takerFeeBps: number;
  sellExitFeeBps: number;
  winningsExitFeeBps: number;
  status: MarketStatus;
  winningOutcome?: number;
  createdAt: number;
  bestBidBps: number | null;
  bestAskBps: number | null;
  /** "onchain" markets have no book or pool here (only their lifecycle). */
  lane: Lane;
  /** Markets created with a creator. */
  lifecycle?: LifecycleView;
  /** LMSR markets: pricing state, pool and prices (WAD, one per outcome). */
  lmsr?: { b: bigint; q: bigint[]; seed: bigint; funder: Address; pool: Address; pricesWad: bigint[] };
}

/** An LMSR quote (Engine.lmsrQuote, Engine.lmsrQuoteForCost). */
export interface LmsrQuote {
  shares: bigint;
  collateral: bigint;
  fee: bigint;
  priceAfterWad: bigint;
}

// ---------------------------------------------------------------- results

export interface OpenAccountResult {
  account: Address;
  signupAt: number;
  allowance: AllowanceView;
}
export interface CreditResult {
  account: Address;
  balance: BalanceView;
}
export interface PlaceOrdersResult {
  orders: OrderView[];
}
export interface ReplaceQuotesResult {
  cancelled: string[];
  orders: OrderView[];
}
export interface CancelAllResult {
  cancelled: string[];
}
/** resolveMarket and voidMarket: the closed market, what holders were paid, the exit fees and the pool's residual. */
export interface SettleResult {
  market: MarketView;
  paid: bigint;
  fees: bigint;
  residual: bigint;
}
/** `collateral` is what the account paid (BUY) or received net of `fee` (SELL). */
export interface LmsrTradeResult {
  tradeId: string;
  marketId: string;
  outcome: LmsrOutcome;
  direction: "BUY" | "SELL";
  shares: bigint;
  collateral: bigint;
  fee: bigint;
  priceAfterWad: bigint;
}

/** The result of each command type (a new command type adds its entry here and its handler in ./commands.ts). */
export interface CommandResults extends LifecycleCommandResults {
  openAccount: OpenAccountResult;
  credit: CreditResult;
  createMarket: MarketView;
  placeOrder: OrderView;
  placeOrders: PlaceOrdersResult;
  replaceQuotes: ReplaceQuotesResult;
  cancelOrder: OrderView;
  cancelAll: CancelAllResult;
  resolveMarket: SettleResult;
  voidMarket: SettleResult;
  addFillCredits: AllowanceView;
  expireOrders: null;
  lmsrTrade: LmsrTradeResult;
}
export type CommandType = Command["type"];
/** The result type of command `C`. */
export type ResultOf<C extends Command> = CommandResults[C["type"]];

// ---------------------------------------------------------------- rejections

/**
 * The details each rejection code carries; its keys are the closed set of codes (exchange-core's rule: a refusal is a
 * value with one code of one set). Amounts in details are decimal strings, as the API shows them.
 */
export interface RejectDetails extends LifecycleRejectDetails {
  /** A field, an order of a batch (`index`), `at` or the command itself is invalid. */
  INVALID_PAYLOAD: { field?: string; index?: number };
  MARKET_NOT_FOUND: Record<never, never>;
  /** createMarket of an id that exists. */
  MARKET_EXISTS: Record<never, never>;
  /** The market is not open: past closeTime, proposed, resolved or voided. */
  MARKET_CLOSED: Record<never, never>;
  /** A movement or a lock does not fit the available balance (`shortBy`); an LMSR sell of more than is outstanding. */
  INSUFFICIENT_BALANCE: { account?: Address; assetId?: string; shortBy?: string };
  FILL_ALLOWANCE_EXHAUSTED: { allowance: AllowanceView };
  /** Unknown order, or another account's. */
  ORDER_NOT_FOUND: Record<never, never>;
  /** cancelOrder of a filled order. */
  ORDER_NOT_OPEN: { order: OrderView };
  /** A clientOrderId reused with different fields. */
  CLIENT_ORDER_ID_REUSED: { orderId: string };
  POST_ONLY_WOULD_CROSS: Record<never, never>;
  /** An LMSR trade whose cost (BUY) or net proceeds (SELL) cross `limit`. */
  SLIPPAGE: { cost: string } | { proceeds: string };
  /** An LMSR BUY by budget that buys no share. */
  BUDGET_TOO_SMALL: Record<never, never>;
}
export type RejectCode = keyof RejectDetails;

/** Every rejection code, for tables that must cover them (checked against {@link RejectCode} both ways). */
export const REJECT_CODES = Object.keys({
  INVALID_PAYLOAD: 0,
  MARKET_NOT_FOUND: 0,
  MARKET_EXISTS: 0,
  MARKET_CLOSED: 0,
  INSUFFICIENT_BALANCE: 0,
  FILL_ALLOWANCE_EXHAUSTED: 0,
  ORDER_NOT_FOUND: 0,
  ORDER_NOT_OPEN: 0,
  CLIENT_ORDER_ID_REUSED: 0,
  POST_ONLY_WOULD_CROSS: 0,
  SLIPPAGE: 0,
  BUDGET_TOO_SMALL: 0,
  CREATOR_WINDOW_ELAPSED: 0,
  CREATOR_WINDOW_NOT_OPEN: 0,
  CHALLENGE_WINDOW_CLOSED: 0,
  NOT_CREATOR: 0,
  CREATOR_NOT_ELIGIBLE: 0,
  KEEPER_WINDOW_CLOSED: 0,
  VOTE_NOT_OPEN: 0,
  ALREADY_VOTED: 0,
  COUNCIL_NOT_OPEN: 0,
  NOT_COUNCIL_MEMBER: 0,
  MARKET_NOT_FINAL: 0,
  WRONG_MARKET_STATE: 0,
} satisfies Record<RejectCode, 0>) as readonly RejectCode[];

/** A refused command: nothing changed. */
export type Rejected<K extends RejectCode = RejectCode> = { [P in K]: { ok: false; code: P; message: string; details: RejectDetails[P] } }[K];

/** An accepted command: its result, the journal ops it emitted and the execution reports it produced. */
export interface Accepted<C extends Command = Command> {
  ok: true;
  result: ResultOf<C>;
  ops: JournalOp[];
  reports: ExecutionReport[];
  /** The market transitions the command made (set only when there are some). */
  events?: LifecycleEvent[];
}

/** What `Engine.apply` answers: a business refusal is a value, never an exception (an exception is a bug). */
export type Applied<C extends Command = Command> = Accepted<C> | Rejected;
