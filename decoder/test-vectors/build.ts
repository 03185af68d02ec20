/**
 * Builds the test vectors deterministically (fixed inputs, no randomness). `generate.ts` writes them to JSON;
 * the tests rebuild them and compare with the committed files, so code and vectors cannot drift apart.
 */
import { bytesToHex, type Address } from "viem";
import { LedgerState } from "../ledger/state";
import { encodePayload, decodePayload } from "../journal/codec";
import { applyOps } from "../journal/movements";
import { outcomeAssetId } from "../assets";
import type { JournalOp } from "../journal/ops";

const jsonBig = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v)));

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
    name: "seven leaves (promotion at two levels)",
    balances: Array.from({ length: 7 }, (_, i): [Address, bigint, bigint] => [acct(0x10 + i), BigInt(i % 2) === 0n ? 0n : outcomeAssetId(BigInt(i), 1), BigInt(i + 1) * 1000n]),
  },
];

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
    cases.push({ name, balances: balances.map(([account, assetId, balance]) => ({ account, assetId, balance })), leaves, root });
  }
  return jsonBig({ description: "Ledger Merkle vectors: leaf = keccak256(keccak256(abi.encodePacked(address,uint256,int256))), sorted-pair nodes, odd node promoted. Amounts are decimal strings.", cases });
}

const A = acct(0x11);
const B = acct(0x22);
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
    name: "ternary LMSR market: outcome 2 trades, resolves and a refund",
    ops: [
      { type: "CREDIT", account: A, assetId: 0n, amount: 300_000n, reason: 0 },
      { type: "MARKET_SEED", marketId: 12n, funder: A, amount: 200_000n },
      { type: "CREDIT", account: B, assetId: 0n, amount: 40_000n, reason: 0 },
      { type: "LMSR_TRADE", account: B, marketId: 12n, side: 2, direction: "BUY", shares: 30_000n, collateral: 11_000n, fee: 0n },
      { type: "LMSR_TRADE", account: B, marketId: 12n, side: 0, direction: "BUY", shares: 9_000n, collateral: 3_100n, fee: 0n },
      { type: "LMSR_TRADE", account: B, marketId: 12n, side: 2, direction: "SELL", shares: 10_000n, collateral: 3_900n, fee: 39n },
      { type: "RESOLUTION_PAYOUT", marketId: 12n, account: B, side: 0, shares: 9_000n, payout: 0n, source: "POOL" },
      { type: "RESOLUTION_PAYOUT", marketId: 12n, account: B, side: 2, shares: 20_000n, payout: 19_800n, source: "POOL" },
      { type: "FEE_SWEEP", marketId: 12n, amount: 200n },
      { type: "CREDIT", account: A, assetId: outcomeAssetId(13n, 2), amount: 3_001n, reason: 8 },
      { type: "VOID_REFUND", marketId: 13n, account: A, side: 2, shares: 3_001n, refund: 1_000n, source: "SUPPLY" },
    ],
  },
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
  return jsonBig({ description: "PMJ5 v1 payloads (hex) with their decodings, the balances after applying them to an empty ledger, and the root. Amounts are decimal strings.", cases });
}
