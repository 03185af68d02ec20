/**
 * Builds the test vectors deterministically (fixed inputs, no randomness). `generate.ts` writes them to JSON;
 * the tests rebuild them and compare with the committed files, so code and vectors cannot drift apart.
 */
import { bytesToHex, concat, type Address, type Hex } from "viem";
import { LedgerState } from "../ledger/state";
import { encodePayload, decodePayload } from "../journal/codec";
import { applyOps } from "../journal/movements";
import { SUPPLY_ACCOUNT, outcomeAssetId, voteEscrowOf } from "../assets";
import { JournalDecodeError, type JournalDecodeErrorCode } from "../errors";
import { ballotHashOf } from "../journal/ballot";
import { OUTCOME_NONE } from "../journal/market-states";
import type { JournalOp } from "../journal/ops";
import { toJsonValue } from "../json";

const acct = (n: number): Address => `0x${n.toString(16).padStart(2, "0").repeat(20)}` as Address;
const TREASURY = acct(0x77);

/** Small ledgers: balances in any order, their sorted leaves, the root and every proof. */
const LEDGERS: { name: string; balances: [Address, bigint, bigint][] }[] = [
  { name: "empty", balances: [] },
  { name: "one leaf", balances: [[acct(0x11), 0n, 1000n]] },
  { name: "two accounts", balances: [[acct(0x22), 0n, 5n], [acct(0x11), 0n, 7n]] },
  {
    name: "odd count with negative and large balances",
    balances: [
      [acct(0x11), 0n, 1_000_000n],
      [acct(0x11), outcomeAssetId(1n, 0), 20_000n],
      [acct(0x11), outcomeAssetId(1n, 1), -3n],
      [acct(0x22), 0n, (1n << 200n) + 1n],
      [acct(0xab), outcomeAssetId(77n, 1), 42n],
    ],
  },
  {
    // 7 -> 4 -> 2 -> 1: only the leaf level has an odd node.
    name: "seven leaves (odd node promoted at the leaf level only)",
    balances: Array.from({ length: 7 }, (_, i): [Address, bigint, bigint] => [acct(0x10 + i), BigInt(i % 2) === 0n ? 0n : outcomeAssetId(BigInt(i), 1), BigInt(i + 1) * 1000n]),
  },
  {
    // 11 -> 6 -> 3 -> 2 -> 1: odd nodes promoted at levels 0 and 2, with an even level between.
    name: "eleven leaves (promotion at two levels, 0 and 2)",
    balances: Array.from({ length: 11 }, (_, i): [Address, bigint, bigint] => [acct(0x30 + i), 0n, BigInt(i + 1) * 10n]),
  },
  {
    // Listed balances that are not leaves: a zero balance (an account that once held PM) and the supply
    // account's (negative) balances. Both are dropped; the root is that of the two remaining leaves.
    name: "zero balance and supply account dropped",
    balances: [
      [acct(0x11), 0n, 0n],
      [SUPPLY_ACCOUNT, 0n, -1_500n],
      [acct(0x22), 0n, 1_000n],
      [SUPPLY_ACCOUNT, outcomeAssetId(2n, 0), -40n],
      [acct(0x11), outcomeAssetId(2n, 0), 40n],
      [acct(0x33), 0n, 500n],
      [acct(0x33), outcomeAssetId(2n, 1), 0n],
    ],
  },
];

/** Node counts of each tree level, leaves first (11 -> [11, 6, 3, 2, 1]). */
function levelSizes(leafCount: number): number[] {
  const sizes = [leafCount];
  while (sizes[sizes.length - 1] > 1) sizes.push(Math.ceil(sizes[sizes.length - 1] / 2));
  return sizes;
}

export async function buildMerkleVectors(): Promise<unknown> {
  const cases = [];
  for (const { name, balances } of LEDGERS) {
    const state = new LedgerState();
    for (const [account, assetId, balance] of balances) state.setBalance(account, assetId, balance);
    const root = await state.root();
    const leaves = [];
    for (const e of state.entries()) {
      const p = (await state.proof(e.account, e.assetId))!;
      leaves.push({ account: e.account, assetId: e.assetId, balance: e.balance, leaf: p.leaf, proof: p.proof });
    }
    const promotedAtLevels = levelSizes(leaves.length).flatMap((size, level) => (size > 1 && size % 2 === 1 ? [level] : []));
    cases.push({ name, balances: balances.map(([account, assetId, balance]) => ({ account, assetId, balance })), leaves, promotedAtLevels, root });
  }
  return toJsonValue({
    description:
      "Ledger Merkle vectors: leaf = keccak256(keccak256(abi.encodePacked(address,uint256,int256))), sorted-pair nodes, odd node promoted. `balances` is the input in any order (zero balances and the supply account 0x0 are not leaves); `leaves` are the sorted leaves with their proofs; `promotedAtLevels` lists the levels (0 = leaves) whose last node is promoted. Amounts are decimal strings.",
    cases,
  });
}

const A = acct(0x11);
const B = acct(0x22);
const C = acct(0x33);
const D = acct(0x44);
const E = acct(0x55);
const K = acct(0x66);
const salt = (n: number): Hex => `0x${n.toString(16).padStart(2, "0").repeat(32)}` as Hex;
/** A ballot's STAKE_LOCK (with its real commitment) and its BALLOT_REVEAL. */
const ballot = (marketId: bigint, session: number, account: Address, outcome: 0 | 1 | 2, saltByte: number, amount: bigint): [JournalOp, JournalOp] => [
  { type: "STAKE_LOCK", marketId, session, account, amount, ballotHash: ballotHashOf({ marketId, session, account, outcome, salt: salt(saltByte) }) },
  { type: "BALLOT_REVEAL", marketId, session, account, outcome, salt: salt(saltByte) },
];
const NONE = OUTCOME_NONE;

// Market 20: created by A, proposed 0, challenged by B, voted 1 by C and D and 0 by E, resolved 1 (challenger
// right). Creation bond 10,004: 5,002 to B, 2,501 to the treasury, 2,501 to the voter pool. Pool and stakes
// (5,501) pay back C's and D's stakes and 1,750 each; the 1 left is swept.
const [lockC, revealC] = ballot(20n, 1, C, 1, 0xc1, 1_000n);
const [lockD, revealD] = ballot(20n, 1, D, 1, 0xd1, 1_000n);
const [lockE, revealE] = ballot(20n, 1, E, 0, 0xe1, 1_000n);
const CHALLENGED: JournalOp[] = [
  { type: "CREDIT", account: A, assetId: 0n, amount: 500_000n, reason: 0 },
  { type: "CREDIT", account: B, assetId: 0n, amount: 20_000n, reason: 0 },
  { type: "CREDIT", account: C, assetId: 0n, amount: 5_000n, reason: 0 },
  { type: "CREDIT", account: D, assetId: 0n, amount: 20_000n, reason: 0 },
  { type: "CREDIT", account: E, assetId: 0n, amount: 5_000n, reason: 0 },
  { type: "MARKET_STATE", marketId: 20n, state: "open", outcome: NONE },
  { type: "BOND_LOCK", marketId: 20n, account: A, amount: 10_004n },
  { type: "MARKET_SEED", marketId: 20n, funder: A, amount: 100_000n },
  { type: "LMSR_TRADE", account: D, marketId: 20n, side: 1, direction: "BUY", shares: 20_000n, collateral: 11_000n, fee: 110n },
  { type: "MARKET_STATE", marketId: 20n, state: "closed", outcome: NONE },
  { type: "MARKET_STATE", marketId: 20n, state: "creator_proposal", outcome: 0 },
  { type: "BOND_LOCK", marketId: 20n, account: B, amount: 10_004n },
  { type: "MARKET_STATE", marketId: 20n, state: "challenge", outcome: 0 },
  { type: "MARKET_STATE", marketId: 20n, state: "human_voting", outcome: NONE },
  lockC,
  lockD,
  lockE,
  { type: "MARKET_STATE", marketId: 20n, state: "council_review", outcome: 1 },
  revealC,
  revealD,
  revealE,
  { type: "MARKET_STATE", marketId: 20n, state: "resolved", outcome: 1 },
  { type: "RESOLUTION_PAYOUT", marketId: 20n, account: D, side: 1, shares: 20_000n, payout: 19_800n, source: "POOL" },
  { type: "FEE_SWEEP", marketId: 20n, amount: 200n },
  { type: "BOND_RETURN", marketId: 20n, account: B, amount: 10_004n },
  { type: "BOND_AWARD", marketId: 20n, account: A, recipient: B, amount: 5_002n },
  { type: "BOND_SLASH", marketId: 20n, account: A, amount: 2_501n },
  { type: "BOND_AWARD", marketId: 20n, account: A, recipient: voteEscrowOf(20n), amount: 2_501n },
  { type: "STAKE_RETURN", marketId: 20n, session: 1, account: C, amount: 1_000n },
  { type: "VOTE_REWARD", marketId: 20n, session: 1, account: C, amount: 1_750n },
  { type: "STAKE_RETURN", marketId: 20n, session: 1, account: D, amount: 1_000n },
  { type: "VOTE_REWARD", marketId: 20n, session: 1, account: D, amount: 1_750n },
  { type: "VOTE_ESCROW_SWEEP", marketId: 20n, amount: 1n },
  { type: "POOL_WITHDRAW", marketId: 20n, account: A, amount: 91_000n },
];

// Market 30 (order book, bond 1,000): the creator misses its window; keeper K takes 100, the treasury 300 and
// the voter pool 600. Session 1 is restarted by the council (stakes refunded), session 2 ends below quorum and
// the council stays silent: a neutral void, every stake refunded, the pool to the treasury.
const [lock1, reveal1] = ballot(30n, 1, C, 0, 0x31, 500n);
const [lock2, reveal2] = ballot(30n, 2, C, 1, 0x32, 500n);
const MIA_RESTART_VOID: JournalOp[] = [
  { type: "CREDIT", account: A, assetId: 0n, amount: 1_000n, reason: 0 },
  { type: "CREDIT", account: C, assetId: 0n, amount: 500n, reason: 0 },
  { type: "MARKET_STATE", marketId: 30n, state: "open", outcome: NONE },
  { type: "BOND_LOCK", marketId: 30n, account: A, amount: 1_000n },
  { type: "CREDIT", account: D, assetId: outcomeAssetId(30n, 0), amount: 7n, reason: 8 },
  { type: "MARKET_STATE", marketId: 30n, state: "closed", outcome: NONE },
  { type: "MARKET_STATE", marketId: 30n, state: "creator_mia", outcome: NONE },
  { type: "BOND_AWARD", marketId: 30n, account: A, recipient: K, amount: 100n },
  { type: "BOND_SLASH", marketId: 30n, account: A, amount: 300n },
  { type: "BOND_AWARD", marketId: 30n, account: A, recipient: voteEscrowOf(30n), amount: 600n },
  { type: "MARKET_STATE", marketId: 30n, state: "human_voting", outcome: NONE },
  lock1,
  { type: "MARKET_STATE", marketId: 30n, state: "council_review", outcome: 0 },
  reveal1,
  { type: "STAKE_RETURN", marketId: 30n, session: 1, account: C, amount: 500n },
  { type: "MARKET_STATE", marketId: 30n, state: "human_voting", outcome: NONE },
  lock2,
  { type: "MARKET_STATE", marketId: 30n, state: "council_review", outcome: NONE },
  reveal2,
  { type: "MARKET_STATE", marketId: 30n, state: "void", outcome: NONE },
  { type: "STAKE_RETURN", marketId: 30n, session: 2, account: C, amount: 500n },
  { type: "VOTE_ESCROW_SWEEP", marketId: 30n, amount: 600n },
  { type: "VOID_REFUND", marketId: 30n, account: D, side: 0, shares: 7n, refund: 3n, source: "SUPPLY" },
];
const PAYLOADS: { name: string; ops: JournalOp[] }[] = [
  { name: "empty batch", ops: [] },
  { name: "one grant", ops: [{ type: "CREDIT", account: A, assetId: 0n, amount: 5n, reason: 0 }] },
  {
    name: "order book: grants, mint, taker buys with fee, merge",
    ops: [
      { type: "CREDIT", account: A, assetId: 0n, amount: 1_000_000n, reason: 0 },
      { type: "CREDIT", account: B, assetId: 0n, amount: 1_000_000n, reason: 1 },
      { type: "MATCH", maker: A, taker: B, marketId: 1n, side: 0, kind: 2, shares: 100_000n, priceBps: 6000, fee: 0n },
      { type: "MATCH", maker: A, taker: B, marketId: 1n, side: 0, kind: 0, shares: 10_000n, priceBps: 6500, fee: 13n },
      { type: "MATCH", maker: A, taker: B, marketId: 1n, side: 0, kind: 3, shares: 50_000n, priceBps: 5000, fee: 5n },
    ],
  },
  {
    // MATCH kind 1: the maker buys side 1 at 4,200 bps from the taker, who sells shares minted earlier.
    name: "order book: taker sells (kind 1) with fee",
    ops: [
      { type: "CREDIT", account: A, assetId: 0n, amount: 1_000_000n, reason: 0 },
      { type: "CREDIT", account: B, assetId: 0n, amount: 1_000_000n, reason: 0 },
      { type: "MATCH", maker: A, taker: B, marketId: 2n, side: 0, kind: 2, shares: 30_000n, priceBps: 5500, fee: 0n },
      { type: "MATCH", maker: A, taker: B, marketId: 2n, side: 1, kind: 1, shares: 20_000n, priceBps: 4200, fee: 21n },
    ],
  },
  {
    name: "LMSR market lifecycle",
    ops: [
      { type: "CREDIT", account: A, assetId: 0n, amount: 500_000n, reason: 0 },
      { type: "BOND_LOCK", marketId: 9n, account: A, amount: 10_000n },
      { type: "MARKET_SEED", marketId: 9n, funder: A, amount: 100_000n },
      { type: "CREDIT", account: B, assetId: 0n, amount: 50_000n, reason: 1 },
      { type: "LMSR_TRADE", account: B, marketId: 9n, side: 1, direction: "BUY", shares: 30_000n, collateral: 17_000n, fee: 170n },
      { type: "LMSR_TRADE", account: B, marketId: 9n, side: 1, direction: "SELL", shares: 10_000n, collateral: 5_500n, fee: 55n },
      { type: "RESOLUTION_PAYOUT", marketId: 9n, account: B, side: 1, shares: 20_000n, payout: 20_000n, source: "POOL" },
      { type: "FEE_SWEEP", marketId: 9n, amount: 1_000n },
      { type: "POOL_WITHDRAW", marketId: 9n, account: A, amount: 50_000n },
      { type: "BOND_RETURN", marketId: 9n, account: A, amount: 10_000n },
    ],
  },
  {
    name: "void and slash",
    ops: [
      { type: "CREDIT", account: A, assetId: outcomeAssetId(4n, 0), amount: 3_000n, reason: 8 },
      { type: "VOID_REFUND", marketId: 4n, account: A, side: 0, shares: 3_000n, refund: 1_500n, source: "SUPPLY" },
      { type: "CREDIT", account: B, assetId: 0n, amount: 7_000n, reason: 0 },
      { type: "BOND_LOCK", marketId: 4n, account: B, amount: 7_000n },
      { type: "BOND_SLASH", marketId: 4n, account: B, amount: 7_000n },
      { type: "DEBIT", account: A, assetId: 0n, amount: 500n, reason: 8 },
    ],
  },
  {
    name: "LMSR market: trades on both sides, resolves with the exit fee swept, and a refund (sides 0 and 1 only)",
    ops: [
      { type: "CREDIT", account: A, assetId: 0n, amount: 300_000n, reason: 0 },
      { type: "MARKET_SEED", marketId: 12n, funder: A, amount: 200_000n },
      { type: "CREDIT", account: B, assetId: 0n, amount: 40_000n, reason: 0 },
      { type: "LMSR_TRADE", account: B, marketId: 12n, side: 1, direction: "BUY", shares: 30_000n, collateral: 16_000n, fee: 0n },
      { type: "LMSR_TRADE", account: B, marketId: 12n, side: 0, direction: "BUY", shares: 9_000n, collateral: 4_100n, fee: 0n },
      { type: "LMSR_TRADE", account: B, marketId: 12n, side: 1, direction: "SELL", shares: 10_000n, collateral: 5_900n, fee: 59n },
      { type: "RESOLUTION_PAYOUT", marketId: 12n, account: B, side: 0, shares: 9_000n, payout: 0n, source: "POOL" },
      { type: "RESOLUTION_PAYOUT", marketId: 12n, account: B, side: 1, shares: 20_000n, payout: 19_800n, source: "POOL" },
      { type: "FEE_SWEEP", marketId: 12n, amount: 200n },
      { type: "CREDIT", account: A, assetId: outcomeAssetId(13n, 1), amount: 3_001n, reason: 8 },
      { type: "VOID_REFUND", marketId: 13n, account: A, side: 1, shares: 3_001n, refund: 1_500n, source: "SUPPLY" },
    ],
  },
  { name: "lifecycle: created, proposed, challenged, voted (sealed ballots revealed), resolved and paid", ops: CHALLENGED },
  { name: "lifecycle: creator MIA (keeper award), council restart, neutral void", ops: MIA_RESTART_VOID },
];

export async function buildJournalVectors(): Promise<unknown> {
  const cases = [];
  for (const { name, ops } of PAYLOADS) {
    const payload = encodePayload(ops, { treasury: TREASURY });
    const decoded = decodePayload(payload);
    const state = new LedgerState();
    applyOps(state, decoded.ops, { treasury: decoded.treasury });
    cases.push({
      name,
      payload: bytesToHex(payload),
      treasury: decoded.treasury,
      ops: decoded.ops,
      accounts: decoded.accounts,
      markets: decoded.markets,
      balancesAfter: state.entries(),
      rootAfter: await state.root(),
    });
  }
  return toJsonValue({ description: "PMJ5 v1 payloads (hex) with their decodings, the balances after applying them to an empty ledger, and the root. Amounts are decimal strings.", cases });
}

/** The one-grant payload (51 bytes) the malformed cases start from, split at its fields. */
const HEAD = "0x504d4a3501"; // magic, version: offsets 0..4
const TREASURY_BYTES = `0x${"77".repeat(20)}` as Hex; // 5..24
const GRANT_ACCOUNT = `0x${"11".repeat(20)}` as Hex; // 28..47
const grantPayload = (over: { count?: Hex; tag?: Hex; ref?: Hex; asset?: Hex; amount?: Hex; reason?: Hex } = {}): Hex =>
  concat([HEAD, TREASURY_BYTES, over.count ?? "0x01", over.tag ?? "0x01", over.ref ?? "0x00", GRANT_ACCOUNT, over.asset ?? "0x00", over.amount ?? "0x05", over.reason ?? "0x00"]);
const cut = (hex: Hex, bytes: number): Hex => hex.slice(0, 2 + 2 * bytes) as Hex;
/** One lifecycle operation `tag` on a new market 12, its other fields given as bytes. */
const lifecycleOp = (tag: Hex, ...fields: Hex[]): Hex => concat([HEAD, TREASURY_BYTES, "0x01", tag, "0x000c", ...fields]);
const NEW_ACCOUNT = concat(["0x00", GRANT_ACCOUNT]);
const NEW_RECIPIENT = concat(["0x00", `0x${"22".repeat(20)}`]);
const HASH = `0x${"ab".repeat(32)}` as Hex;

/**
 * Malformed payloads and the error each must give: the code and the byte offset where the problem starts.
 * The builder checks the decoder agrees, so a change of error or offset fails generation, not only the test.
 */
const MALFORMED: { name: string; payload: Hex; code: JournalDecodeErrorCode; offset: number }[] = [
  { name: "empty payload", payload: "0x", code: "TRUNCATED", offset: 0 },
  { name: "wrong magic (PMJ4)", payload: `0x504d4a34${grantPayload().slice(10)}`, code: "BAD_MAGIC", offset: 0 },
  { name: "unknown version 2", payload: concat(["0x504d4a3502", TREASURY_BYTES, "0x00"]), code: "UNKNOWN_VERSION", offset: 4 },
  { name: "ends inside the treasury", payload: cut(grantPayload(), 15), code: "TRUNCATED", offset: 5 },
  { name: "count of 100 operations in 25 bytes", payload: grantPayload({ count: "0x64" }), code: "TRUNCATED", offset: 25 },
  { name: "count varint wider than 32 bits", payload: concat([HEAD, TREASURY_BYTES, "0xffffffff1f", "0x00"]), code: "VARINT_OVERSIZE", offset: 25 },
  { name: "unknown operation tag 0x14", payload: grantPayload({ tag: "0x14" }), code: "UNKNOWN_OP", offset: 26 },
  { name: "account index 0 of an empty dictionary", payload: concat([HEAD, TREASURY_BYTES, "0x01", "0x01", "0x01", "0x00", "0x05", "0x00"]), code: "INDEX_OUT_OF_RANGE", offset: 27 },
  { name: "ends inside the account literal", payload: cut(grantPayload(), 40), code: "TRUNCATED", offset: 28 },
  { name: "asset selector 3 (side 2: the committed ledger is binary)", payload: grantPayload({ asset: "0x03" }), code: "INVALID_VALUE", offset: 48 },
  { name: "CREDIT amount 0", payload: grantPayload({ amount: "0x00" }), code: "INVALID_VALUE", offset: 49 },
  { name: "amount 5 as a non-canonical two-byte varint", payload: grantPayload({ amount: "0x8500" }), code: "VARINT_NONCANONICAL", offset: 49 },
  { name: "reason 9", payload: grantPayload({ reason: "0x09" }), code: "INVALID_VALUE", offset: 50 },
  { name: "ends before the reason", payload: cut(grantPayload(), 50), code: "TRUNCATED", offset: 50 },
  { name: "one byte after the last operation", payload: concat([grantPayload(), "0x00"]), code: "TRAILING_BYTES", offset: 51 },
  {
    name: "the same account literal twice",
    payload: concat([HEAD, TREASURY_BYTES, "0x02", "0x01", "0x00", GRANT_ACCOUNT, "0x00", "0x05", "0x00", "0x01", "0x00", GRANT_ACCOUNT, "0x00", "0x05", "0x00"]),
    code: "INVALID_VALUE",
    offset: 53,
  },
  {
    // MATCH: tag 26, maker literal 27..47, taker ref 48 (index 0 = the maker), new market 49..50, side 51, kind 52,
    // shares 10,000 at 53..54, priceBps 10,000 at 55..56 (out of 1..9999), fee 57.
    name: "MATCH priceBps 10000",
    payload: concat([HEAD, TREASURY_BYTES, "0x01", "0x03", "0x00", GRANT_ACCOUNT, "0x01", "0x00", "0x01", "0x00", "0x01", "0x904e", "0x904e", "0x00"]),
    code: "INVALID_VALUE",
    offset: 55,
  },
  { name: "new market id 0", payload: concat([HEAD, TREASURY_BYTES, "0x01", "0x09", "0x00", "0x00", "0x05"]), code: "INVALID_VALUE", offset: 28 },
  // Lifecycle operations, each alone in a payload: tag at 26, then a new market 12 (00 0c) at 27..28.
  // MARKET_STATE: state at 29, outcome at 30.
  { name: "MARKET_STATE state 9 (no such state)", payload: lifecycleOp("0x0d", "0x09", "0xff"), code: "INVALID_VALUE", offset: 29 },
  { name: "MARKET_STATE outcome 3", payload: lifecycleOp("0x0d", "0x01", "0x03"), code: "INVALID_VALUE", offset: 30 },
  { name: "MARKET_STATE resolved without an outcome (255)", payload: lifecycleOp("0x0d", "0x07", "0xff"), code: "INVALID_VALUE", offset: 30 },
  { name: "MARKET_STATE void naming outcome 1", payload: lifecycleOp("0x0d", "0x08", "0x01"), code: "INVALID_VALUE", offset: 30 },
  { name: "MARKET_STATE ends before the outcome", payload: lifecycleOp("0x0d", "0x07"), code: "TRUNCATED", offset: 30 },
  // BOND_AWARD: account literal 29..49, recipient literal 50..70, amount at 71.
  { name: "BOND_AWARD amount 0", payload: lifecycleOp("0x0e", NEW_ACCOUNT, NEW_RECIPIENT, "0x00"), code: "INVALID_VALUE", offset: 71 },
  // STAKE_LOCK: session at 29, account literal 30..50, amount at 51, ballotHash 52..83.
  { name: "STAKE_LOCK session 65536 (wider than 16 bits)", payload: lifecycleOp("0x0f", "0x808004", NEW_ACCOUNT, "0x64", HASH), code: "VARINT_OVERSIZE", offset: 29 },
  { name: "STAKE_LOCK amount 0", payload: lifecycleOp("0x0f", "0x01", NEW_ACCOUNT, "0x00", HASH), code: "INVALID_VALUE", offset: 51 },
  { name: "STAKE_LOCK ends inside the ballotHash", payload: cut(lifecycleOp("0x0f", "0x01", NEW_ACCOUNT, "0x64", HASH), 68), code: "TRUNCATED", offset: 52 },
  // STAKE_RETURN and VOTE_REWARD: session at 29, account literal 30..50, amount at 51.
  { name: "STAKE_RETURN session 1 as a non-canonical two-byte varint", payload: lifecycleOp("0x10", "0x8100", NEW_ACCOUNT, "0x64"), code: "VARINT_NONCANONICAL", offset: 29 },
  { name: "VOTE_REWARD amount 0", payload: lifecycleOp("0x11", "0x01", NEW_ACCOUNT, "0x00"), code: "INVALID_VALUE", offset: 51 },
  // BALLOT_REVEAL: session at 29, account literal 30..50, outcome at 51, salt 52..83.
  { name: "BALLOT_REVEAL outcome 255 (a ballot names an outcome)", payload: lifecycleOp("0x12", "0x01", NEW_ACCOUNT, "0xff", HASH), code: "INVALID_VALUE", offset: 51 },
  { name: "BALLOT_REVEAL ends inside the salt", payload: cut(lifecycleOp("0x12", "0x01", NEW_ACCOUNT, "0x01", HASH), 83), code: "TRUNCATED", offset: 52 },
  // VOTE_ESCROW_SWEEP: amount at 29.
  { name: "VOTE_ESCROW_SWEEP amount 0", payload: lifecycleOp("0x13", "0x00"), code: "INVALID_VALUE", offset: 29 },
];

export function buildMalformedJournalVectors(): unknown {
  const cases = MALFORMED.map(({ name, payload, code, offset }) => {
    let error: unknown;
    try {
      decodePayload(new Uint8Array(Buffer.from(payload.slice(2), "hex")));
    } catch (e) {
      error = e;
    }
    if (!(error instanceof JournalDecodeError) || error.code !== code || error.offset !== offset) {
      throw new Error(`malformed vector "${name}": expected ${code} at ${offset}, decoder gave ${error instanceof JournalDecodeError ? `${error.code} at ${error.offset}` : String(error)}`);
    }
    return { name, payload, error: { code, offset, message: error.message } };
  });
  return {
    description:
      "Malformed PMJ5 payloads (hex). Decoding each must fail with `error.code` at byte `error.offset` (where the problem starts); `message` is the reference decoder's wording, not part of the format.",
    cases,
  };
}
