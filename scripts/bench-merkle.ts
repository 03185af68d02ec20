/**
 * `npm run bench:merkle`: Merkle root speed of the decoder's ledger tree.
 * Prints one JSON object per line:
 *   {"bench":"merkle","leaves":N,"ms":…}                       full root from balances (all leaves hashed)
 *   {"bench":"merkle-vs-oz","leaves":100000,"ms":…,"ozMs":…,"ratio":…}  same leaves through OZ SimpleMerkleTree.of
 * Deterministic inputs (no randomness): accounts and balances are derived from the index.
 */
import { SimpleMerkleTree } from "@openzeppelin/merkle-tree";
import type { Address } from "viem";
import { LedgerState, loadKeccak256 } from "../decoder";

const ASSETS_PER_ACCOUNT = 4;

function ledgerWith(leaves: number): LedgerState {
  const state = new LedgerState();
  const accounts = Math.ceil(leaves / ASSETS_PER_ACCOUNT);
  let placed = 0;
  for (let a = 0; a < accounts && placed < leaves; a++) {
    // Ascending accounts: 0x00..01 + index, so the bulk load appends.
    const account = `0x${(a + 1).toString(16).padStart(40, "0")}` as Address;
    for (let k = 0; k < ASSETS_PER_ACCOUNT && placed < leaves; k++, placed++) {
      const assetId = k === 0 ? 0n : (BigInt(k) << 8n) | BigInt(k & 1);
      state.setBalance(account, assetId, BigInt(a * 7919 + k * 104729 + 1) * (k === 3 ? -1n : 1n));
    }
  }
  return state;
}

async function timeRoot(state: LedgerState): Promise<number> {
  const t0 = performance.now();
  await state.root();
  return performance.now() - t0;
}

async function main(): Promise<void> {
  await loadKeccak256();
  // Warm up the JIT on a small ledger.
  await timeRoot(ledgerWith(20_000));

  const hundredK = ledgerWith(100_000);
  const ms100k = await timeRoot(hundredK);
  console.log(JSON.stringify({ bench: "merkle", leaves: 100_000, ms: Math.round(ms100k) }));

  // Same 100k leaves through OpenZeppelin's builder (it takes the leaf hashes directly). Measured before the
  // 1M ledger exists so both sides run on the same heap.
  const leafHashes = [];
  for (const e of hundredK.entries()) leafHashes.push((await hundredK.proof(e.account, e.assetId))!.leaf);
  const t0 = performance.now();
  SimpleMerkleTree.of(leafHashes, { sortLeaves: false });
  const ozMs = performance.now() - t0;

  const million = ledgerWith(1_000_000);
  const ms1m = await timeRoot(million);
  console.log(JSON.stringify({ bench: "merkle", leaves: 1_000_000, ms: Math.round(ms1m) }));
  console.log(
    JSON.stringify({ bench: "merkle-vs-oz", leaves: 100_000, ms: Math.round(ms100k), ozMs: Math.round(ozMs), ratio: Math.round((ozMs / ms100k) * 10) / 10 }),
  );
}

void main();
