/**
 * Commands, execution reports, configuration and the rejection error of the in-memory exchange engine
 * (see docs/engine.md). Money and sizes are bigint smallest units; prices are integer basis points.
 */
import type { Address } from "viem";
import type { CreditReason, OutcomeIndex } from "../../decoder";

export type CreditReasonName = keyof typeof CreditReason;

export interface EngineConfig {
  /** Receives taker fees and resolution exit fees. */
  treasury: Address;
  allowance: { enabled: boolean; freePerPeriod: number; periodMs: number };
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

export interface OpenAccountCommand { type: "openAccount"; account: Address; signupAt: number }
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
export interface PlaceOrderCommand extends OrderSpec { type: "placeOrder"; account: Address; marketId: bigint }
export interface PlaceOrdersCommand { type: "placeOrders"; account: Address; marketId: bigint; orders: OrderSpec[] }
export interface ReplaceQuotesCommand { type: "replaceQuotes"; account: Address; marketId: bigint; orders: OrderSpec[] }
export interface CancelOrderCommand { type: "cancelOrder"; account: Address; orderId?: string; clientOrderId?: string }
export interface CancelAllCommand { type: "cancelAll"; account: Address; marketId?: bigint }
export interface ResolveMarketCommand { type: "resolveMarket"; marketId: bigint; winningOutcome: number }
export interface VoidMarketCommand { type: "voidMarket"; marketId: bigint }
export interface AddFillCreditsCommand { type: "addFillCredits"; account: Address; fills: number }
/** Expires the GTD orders due at `at` and nothing else (every command does that first; this one exists for the timer). */
export interface ExpireOrdersCommand { type: "expireOrders" }

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
  | LmsrTradeCommand;

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

/** Thrown for every refused command; the engine state is exactly as before. */
export class EngineRejection extends Error {
  readonly code: string;
  readonly status: number;
  readonly extensions?: Record<string, unknown>;
  constructor(code: string, status: number, message: string, extensions?: Record<string, unknown>) {
    super(message);
    this.name = "EngineRejection";
    this.code = code;
    this.status = status;
    this.extensions = extensions;
  }
}
