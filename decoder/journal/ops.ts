/**
 * Operations of the PMJ5 journal: a typed discriminated union on `type`. Each one has a fixed movement list
 * (see ./movements.ts and docs/journal-format.md). Amounts are bigint smallest units; accounts lower-case.
 */
import type { Address, Hex } from "viem";
import { LEDGER_SIDES, MAX_OUTCOMES, type OutcomeIndex, type Side } from "../assets";
import { MARKET_STATES, OUTCOME_NONE, type MarketStateName, type OutcomeOrNone } from "./market-states";
import { bigintFields } from "../json";

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
export interface CreditOp {
  type: "CREDIT";
  account: Address;
  assetId: bigint;
  amount: bigint;
  reason: CreditReason;
}
/** account -> supply `amount` of `assetId`. */
export interface DebitOp {
  type: "DEBIT";
  account: Address;
  assetId: bigint;
  amount: bigint;
  reason: CreditReason;
}
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
export interface MarketSeedOp {
  type: "MARKET_SEED";
  marketId: bigint;
  funder: Address;
  amount: bigint;
}
/** Collateral leaves the pool to an account (seed and residual collected after finality): pool -> account. */
export interface PoolWithdrawOp {
  type: "POOL_WITHDRAW";
  marketId: bigint;
  account: Address;
  amount: bigint;
}
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
export interface FeeSweepOp {
  type: "FEE_SWEEP";
  marketId: bigint;
  amount: bigint;
}
/** A bond locked: account -> bond escrow of the market. */
export interface BondLockOp {
  type: "BOND_LOCK";
  marketId: bigint;
  account: Address;
  amount: bigint;
}
/** A bond returned: bond escrow -> account. */
export interface BondReturnOp {
  type: "BOND_RETURN";
  marketId: bigint;
  account: Address;
  amount: bigint;
}
/** A bond slashed: bond escrow -> treasury (`account` names whose bond it was). */
export interface BondSlashOp {
  type: "BOND_SLASH";
  marketId: bigint;
  account: Address;
  amount: bigint;
}

/**
 * A market entered `state` (see ./market-states.ts); moves nothing. `outcome` is the outcome the state names (the
 * proposed, the decided) or {@link OUTCOME_NONE}: `resolved` always names one, `void` never.
 */
export interface MarketStateOp {
  type: "MARKET_STATE";
  marketId: bigint;
  state: MarketStateName;
  outcome: OutcomeOrNone;
}
/** Part of `account`'s bond awarded to `recipient` (challenger, creator, keeper, or the vote escrow): bond escrow -> recipient. */
export interface BondAwardOp {
  type: "BOND_AWARD";
  marketId: bigint;
  account: Address;
  recipient: Address;
  amount: bigint;
}
/**
 * A ballot's stake locked, with the public commitment to the sealed ballot (see ./ballot.ts):
 * account -> vote escrow.
 */
export interface StakeLockOp {
  type: "STAKE_LOCK";
  marketId: bigint;
  session: number;
  account: Address;
  amount: bigint;
  ballotHash: Hex;
}
/** A ballot's stake returned: vote escrow -> account. */
export interface StakeReturnOp {
  type: "STAKE_RETURN";
  marketId: bigint;
  session: number;
  account: Address;
  amount: bigint;
}
/** A correct voter's reward (share of incorrect stakes and the voter pool): vote escrow -> account. */
export interface VoteRewardOp {
  type: "VOTE_REWARD";
  marketId: bigint;
  session: number;
  account: Address;
  amount: bigint;
}
/** A sealed ballot revealed at the deadline; moves nothing, checked against its STAKE_LOCK's `ballotHash` by replay. */
export interface BallotRevealOp {
  type: "BALLOT_REVEAL";
  marketId: bigint;
  session: number;
  account: Address;
  outcome: OutcomeIndex;
  salt: Hex;
}
/** What is left in the vote escrow (rounding, a pool without correct voters) swept: vote escrow -> treasury. */
export interface VoteEscrowSweepOp {
  type: "VOTE_ESCROW_SWEEP";
  marketId: bigint;
  amount: bigint;
}

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
  | BondSlashOp
  | MarketStateOp
  | BondAwardOp
  | StakeLockOp
  | StakeReturnOp
  | VoteRewardOp
  | BallotRevealOp
  | VoteEscrowSweepOp;

/**
 * Names of the bigint fields of the operations, which their JSON form carries as decimal strings. The compiler checks
 * the list against {@link JournalOp}: an operation added with a bigint field not named here does not compile.
 */
export const OP_BIGINT_FIELDS = bigintFields<JournalOp>()("assetId", "amount", "marketId", "shares", "fee", "collateral", "payout", "refund");

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
  MARKET_STATE: 0x0d,
  BOND_AWARD: 0x0e,
  STAKE_LOCK: 0x0f,
  STAKE_RETURN: 0x10,
  VOTE_REWARD: 0x11,
  BALLOT_REVEAL: 0x12,
  VOTE_ESCROW_SWEEP: 0x13,
} as const satisfies Record<JournalOp["type"], number>;

/**
 * How one field travels on the wire (docs/journal-format.md, "Primitive encodings"), and so its JavaScript type:
 * - `account`: `acct` reference, an {@link Address} (lower-case once decoded);
 * - `market`: `mkt` reference, a bigint id 1..2^64-1;
 * - `asset`: `asset` selector (+ `mkt`), a bigint asset id;
 * - `amount`: `varint(bits)` with a lower bound, a bigint;
 * - `u8`: one byte 0..max, or exactly `none` when set, a number;
 * - `enum`: one byte indexing `values`, the value's string;
 * - `varint`: `varint(bits)` in min..max, a number;
 * - `bytes32`: 32 raw bytes, a lower-case {@link Hex} once decoded.
 * `label` names the field in error messages when it differs from the field's name.
 */
export type OpField =
  | { readonly kind: "account" }
  | { readonly kind: "market" }
  | { readonly kind: "asset" }
  | { readonly kind: "amount"; readonly bits: 128 | 255; readonly min: bigint; readonly label?: string }
  | { readonly kind: "u8"; readonly max: number; readonly none?: number }
  | { readonly kind: "enum"; readonly values: readonly string[] }
  | { readonly kind: "varint"; readonly bits: number; readonly min: number; readonly max: number }
  | { readonly kind: "bytes32" };

type OpOf<T extends JournalOp["type"]> = Extract<JournalOp, { type: T }>;
type FieldName<T extends JournalOp["type"]> = Exclude<keyof OpOf<T>, "type">;
/** The fields of one operation type, in wire order: `[name, how it travels]`. */
export type OpFieldList<T extends JournalOp["type"]> = readonly (readonly [FieldName<T>, OpField])[];

const ACCOUNT = { kind: "account" } as const;
const MARKET = { kind: "market" } as const;
/** `amount` (varint(255)) with a lower bound: 1 where a zero would be meaningless. */
const amount = (min: bigint, label?: string): OpField => ({ kind: "amount", bits: 255, min, ...(label ? { label } : {}) });
const u128 = (min: bigint): OpField => ({ kind: "amount", bits: 128, min });
const u8 = (max: number, none?: number): OpField => ({ kind: "u8", max, ...(none === undefined ? {} : { none }) });
const SESSION: OpField = { kind: "varint", bits: 16, min: 0, max: 0xffff };
/** An outcome a lifecycle record names (outcome 2 of an on-chain ternary market included). */
const OUTCOME = u8(MAX_OUTCOMES - 1);
/** A side of the committed ledger: 0 or 1 (the spec refuses side 2 in an asset id, a trade, a payout). */
const SIDE = u8(LEDGER_SIDES - 1);
const BYTES32 = { kind: "bytes32" } as const;
const SOURCE: OpField = { kind: "enum", values: ["SUPPLY", "POOL"] };
const MARKET_ACCOUNT_AMOUNT = [
  ["marketId", MARKET],
  ["account", ACCOUNT],
  ["amount", amount(1n)],
] as const;
const SESSION_AMOUNT = [
  ["marketId", MARKET],
  ["session", SESSION],
  ["account", ACCOUNT],
  ["amount", amount(1n)],
] as const;

/**
 * The one declaration of every operation's fields: their wire order (the codec reads and writes them in this
 * order, and decoded operations list their keys in it) and how each travels. JSON forms derive from it: see
 * {@link opFieldsOfKind} (which fields are bigint, which are hex strings).
 */
export const OP_FIELDS = {
  CREDIT: [
    ["account", ACCOUNT],
    ["assetId", { kind: "asset" }],
    ["amount", amount(1n)],
    ["reason", u8(8)],
  ],
  DEBIT: [
    ["account", ACCOUNT],
    ["assetId", { kind: "asset" }],
    ["amount", amount(1n)],
    ["reason", u8(8)],
  ],
  MATCH: [
    ["maker", ACCOUNT],
    ["taker", ACCOUNT],
    ["marketId", MARKET],
    ["side", u8(1)],
    ["kind", u8(3)],
    ["shares", u128(1n)],
    ["priceBps", { kind: "varint", bits: 32, min: 1, max: 9999 }],
    ["fee", u128(0n)],
  ],
  LMSR_TRADE: [
    ["account", ACCOUNT],
    ["marketId", MARKET],
    ["side", SIDE],
    ["direction", { kind: "enum", values: ["BUY", "SELL"] }],
    ["shares", u128(1n)],
    ["collateral", u128(0n)],
    ["fee", u128(0n)],
  ],
  MARKET_SEED: [
    ["marketId", MARKET],
    ["funder", ACCOUNT],
    ["amount", amount(1n)],
  ],
  POOL_WITHDRAW: MARKET_ACCOUNT_AMOUNT,
  RESOLUTION_PAYOUT: [
    ["marketId", MARKET],
    ["account", ACCOUNT],
    ["side", SIDE],
    ["source", SOURCE],
    ["shares", amount(0n)],
    ["payout", amount(0n, "paid amount")],
  ],
  VOID_REFUND: [
    ["marketId", MARKET],
    ["account", ACCOUNT],
    ["side", SIDE],
    ["source", SOURCE],
    ["shares", amount(0n)],
    ["refund", amount(0n, "paid amount")],
  ],
  FEE_SWEEP: [
    ["marketId", MARKET],
    ["amount", amount(1n)],
  ],
  BOND_LOCK: MARKET_ACCOUNT_AMOUNT,
  BOND_RETURN: MARKET_ACCOUNT_AMOUNT,
  BOND_SLASH: MARKET_ACCOUNT_AMOUNT,
  MARKET_STATE: [
    ["marketId", MARKET],
    ["state", { kind: "enum", values: MARKET_STATES }],
    ["outcome", u8(MAX_OUTCOMES - 1, OUTCOME_NONE)],
  ],
  BOND_AWARD: [
    ["marketId", MARKET],
    ["account", ACCOUNT],
    ["recipient", ACCOUNT],
    ["amount", amount(1n)],
  ],
  STAKE_LOCK: [...SESSION_AMOUNT, ["ballotHash", BYTES32]],
  STAKE_RETURN: SESSION_AMOUNT,
  VOTE_REWARD: SESSION_AMOUNT,
  BALLOT_REVEAL: [
    ["marketId", MARKET],
    ["session", SESSION],
    ["account", ACCOUNT],
    ["outcome", OUTCOME],
    ["salt", BYTES32],
  ],
  VOTE_ESCROW_SWEEP: [
    ["marketId", MARKET],
    ["amount", amount(1n)],
  ],
} as const satisfies { readonly [T in JournalOp["type"]]: OpFieldList<T> };

/** Fields of `T` that {@link OP_FIELDS} leaves out: `never` for every type, or the check below fails to compile. */
type Undeclared<T extends JournalOp["type"]> = Exclude<FieldName<T>, (typeof OP_FIELDS)[T][number][0]>;
// Compile-time completeness check of OP_FIELDS (the `satisfies` above only checks that each listed name exists).
const everyFieldDeclared: { [T in JournalOp["type"]]: Undeclared<T> } extends { [T in JournalOp["type"]]: never } ? true : false = true;
void everyFieldDeclared;

/** How a field appears in JSON: bigint (a decimal string at the JSON edge), number, a hex string, or a plain string. */
export type OpFieldJsonKind = "bigint" | "number" | "hex" | "string";

/** The JSON kind of a field: accounts and bytes32 are hex strings; ids and amounts bigint; u8 and small varints numbers. */
export function jsonKindOf(field: OpField): OpFieldJsonKind {
  switch (field.kind) {
    case "market":
    case "asset":
    case "amount":
      return "bigint";
    case "u8":
    case "varint":
      return "number";
    case "account":
    case "bytes32":
      return "hex";
    case "enum":
      return "string";
  }
}

/** The names of `type`'s fields of one JSON kind, in wire order (e.g. the bigint fields a JSON reviver restores). */
export function opFieldsOfKind(type: JournalOp["type"], kind: OpFieldJsonKind): string[] {
  return (OP_FIELDS[type] as readonly (readonly [string, OpField])[]).filter(([, f]) => jsonKindOf(f) === kind).map(([name]) => name);
}

/** What the movements of an operation need besides the operation itself. */
export interface MovementContext {
  /** The treasury account named in the payload header. */
  readonly treasury: Address;
}
