/**
 * Operations of the PMJ5 journal: a typed discriminated union on `type`. Each one has a fixed movement list
 * (see ./movements.ts and docs/journal-format.md). Amounts are bigint smallest units; accounts lower-case.
 */
import type { Address } from "viem";
import type { OutcomeIndex, Side } from "../assets";

/** Reasons of CREDIT/DEBIT, the credit reasons of the ledger conventions. */
export const CreditReason = {
  GRANT: 0,
  PURCHASE: 1,
  PAYOUT: 2,
  VOID_REFUND: 3,
  FEE_SWEEP: 4,
  BOND_LOCK: 5,
  BOND_RETURN: 6,
  BOND_SLASH: 7,
  ADJUSTMENT: 8,
} as const;
/** A credit reason code 0..8. */
export type CreditReason = (typeof CreditReason)[keyof typeof CreditReason];

/** Kinds of an order-book match, as in the ledger conventions. */
export const MatchKind = { TAKER_BUYS: 0, TAKER_SELLS: 1, MINT: 2, MERGE: 3 } as const;
/** A match kind code 0..3. */
export type MatchKind = (typeof MatchKind)[keyof typeof MatchKind];

/** Where a resolution payout or void refund is paid from. */
export type FundingSource = "SUPPLY" | "POOL";

/** supply -> account `amount` of `assetId`. */
export interface CreditOp { type: "CREDIT"; account: Address; assetId: bigint; amount: bigint; reason: CreditReason }
/** account -> supply `amount` of `assetId`. */
export interface DebitOp { type: "DEBIT"; account: Address; assetId: bigint; amount: bigint; reason: CreditReason }
/** An order-book fill (the match tuple of the conventions). */
export interface MatchOp {
  type: "MATCH";
  maker: Address;
  taker: Address;
  marketId: bigint;
  side: Side;
  kind: MatchKind;
  shares: bigint;
  priceBps: number;
  fee: bigint;
}
/** A trade against the market's LMSR pool: BUY pays `collateral` for `shares`, SELL receives it. */
export interface LmsrTradeOp {
  type: "LMSR_TRADE";
  account: Address;
  marketId: bigint;
  /** Outcome index (0..2; ternary LMSR markets use 2). */
  side: OutcomeIndex;
  direction: "BUY" | "SELL";
  shares: bigint;
  collateral: bigint;
  fee: bigint;
}
/** The creator (or operator) funds the market's pool: funder -> pool. */
export interface MarketSeedOp { type: "MARKET_SEED"; marketId: bigint; funder: Address; amount: bigint }
/** Collateral leaves the pool to an account (seed and residual collected after finality): pool -> account. */
export interface PoolWithdrawOp { type: "POOL_WITHDRAW"; marketId: bigint; account: Address; amount: bigint }
/** Winning (or any) shares burned and collateral paid out. */
export interface ResolutionPayoutOp {
  type: "RESOLUTION_PAYOUT";
  marketId: bigint;
  account: Address;
  side: OutcomeIndex;
  shares: bigint;
  payout: bigint;
  source: FundingSource;
}
/** Shares of a voided market burned and collateral refunded. */
export interface VoidRefundOp {
  type: "VOID_REFUND";
  marketId: bigint;
  account: Address;
  side: OutcomeIndex;
  shares: bigint;
  refund: bigint;
  source: FundingSource;
}
/** Fees accrued in a market's pool swept to the treasury: pool -> treasury. */
export interface FeeSweepOp { type: "FEE_SWEEP"; marketId: bigint; amount: bigint }
/** A bond locked: account -> bond escrow of the market. */
export interface BondLockOp { type: "BOND_LOCK"; marketId: bigint; account: Address; amount: bigint }
/** A bond returned: bond escrow -> account. */
export interface BondReturnOp { type: "BOND_RETURN"; marketId: bigint; account: Address; amount: bigint }
/** A bond slashed: bond escrow -> treasury (`account` names whose bond it was). */
export interface BondSlashOp { type: "BOND_SLASH"; marketId: bigint; account: Address; amount: bigint }

/** Every operation a PMJ5 payload can carry. */
export type JournalOp =
  | CreditOp
  | DebitOp
  | MatchOp
  | LmsrTradeOp
  | MarketSeedOp
  | PoolWithdrawOp
  | ResolutionPayoutOp
  | VoidRefundOp
  | FeeSweepOp
  | BondLockOp
  | BondReturnOp
  | BondSlashOp;

/** Wire tag of each operation type. */
export const OP_TAGS = {
  CREDIT: 0x01,
  DEBIT: 0x02,
  MATCH: 0x03,
  LMSR_TRADE: 0x04,
  MARKET_SEED: 0x05,
  POOL_WITHDRAW: 0x06,
  RESOLUTION_PAYOUT: 0x07,
  VOID_REFUND: 0x08,
  FEE_SWEEP: 0x09,
  BOND_LOCK: 0x0a,
  BOND_RETURN: 0x0b,
  BOND_SLASH: 0x0c,
} as const satisfies Record<JournalOp["type"], number>;

/** What the movements of an operation need besides the operation itself. */
export interface MovementContext {
  /** The treasury account named in the payload header. */
  readonly treasury: Address;
}
