/**
 * Replay against an in-memory fake RPC client. The ABI here is a test fixture shaped like the spec's
 * CommittedLedger interface (the real one comes from generated/abis.ts; the e2e test uses it).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { encodeAbiParameters, encodeEventTopics, encodeFunctionData, keccak256, parseAbi, toHex, type Address, type Hex, type PublicClient } from "viem";
import { replayLedger } from "./replay";
import { LedgerState } from "../ledger/state";
import { encodePayload } from "../journal/codec";
import { applyOps } from "../journal/movements";
import { journalCommitmentOf, ZERO_HASH } from "../journal/commitment";
import { legacyCalldataMovements } from "./legacy";
import type { JournalOp } from "../journal/ops";

const abi = parseAbi([
  "event JournalBatchCommitted(uint64 indexed nonce, bytes32 newRoot, bytes32 journalCommitment)",
  "event BatchCommitted(uint64 indexed nonce, bytes32 newRoot)",
  "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
  "function commitJournalBatch(uint64 expectedNonce, bytes32 prevRoot, bytes32 newRoot, bytes32 prevJournalCommitment, bytes32 payloadHash, bytes payload)",
  "function commitBatch(uint64 expectedNonce, bytes32 prevRoot, bytes32 newRoot, (address maker, address taker, uint64 marketId, uint8 side, uint8 kind, uint128 shares, uint32 priceBps, uint128 fee)[] matches, (address account, uint256 id, int128 delta, uint8 reason)[] credits, bool emitEvents)",
  "function treasury() view returns (address)",
  "function journalCommitment() view returns (bytes32)",
]);

const LEDGER: Address = "0x00000000000000000000000000000000000000ee";
const TREASURY: Address = "0x7777777777777777777777777777777777777777";
const A: Address = "0x1111111111111111111111111111111111111111";
const B: Address = "0x2222222222222222222222222222222222222222";

interface FakeTx { hash: Hex; block: bigint; input: Hex; logs: { topics: Hex[]; data: Hex }[] }

/** Builds a fake chain of batches, committing the roots a correct operator would (or tampered ones). */
class FakeChain {
  txs: FakeTx[] = [];
  state = new LedgerState();
  nonce = 0n;
  root: Hex = ZERO_HASH;
  commitment: Hex = ZERO_HASH;

  async journal(ops: JournalOp[], tamperRoot = false): Promise<Hex> {
    const payload = toHex(encodePayload(ops, { treasury: TREASURY }));
    applyOps(this.state, ops, { treasury: TREASURY });
    const newRoot = tamperRoot ? keccak256("0x01") : await this.state.root();
    this.nonce += 1n;
    const input = encodeFunctionData({ abi, functionName: "commitJournalBatch", args: [this.nonce, this.root, newRoot, this.commitment, keccak256(payload), payload] });
    this.commitment = journalCommitmentOf(this.commitment, this.nonce, newRoot, keccak256(payload));
    this.root = newRoot;
    const topics = encodeEventTopics({ abi, eventName: "JournalBatchCommitted", args: { nonce: this.nonce } }) as Hex[];
    return this.push(input, [{ topics, data: encodeAbiParameters([{ type: "bytes32" }, { type: "bytes32" }], [newRoot, this.commitment]) }]);
  }

  async legacy(credits: { account: Address; id: bigint; delta: bigint; reason: number }[], emitEvents: boolean): Promise<Hex> {
    const moves = legacyCalldataMovements([], credits, TREASURY);
    this.state.applyMovements(moves);
    const newRoot = await this.state.root();
    this.nonce += 1n;
    const input = encodeFunctionData({ abi, functionName: "commitBatch", args: [this.nonce, this.root, newRoot, [], credits, emitEvents] });
    this.root = newRoot;
    const logs = [{ topics: encodeEventTopics({ abi, eventName: "BatchCommitted", args: { nonce: this.nonce } }) as Hex[], data: encodeAbiParameters([{ type: "bytes32" }], [newRoot]) }];
    if (emitEvents) {
      for (const m of moves) {
        logs.push({
          topics: encodeEventTopics({ abi, eventName: "TransferSingle", args: { operator: LEDGER, from: m.from, to: m.to } }) as Hex[],
          data: encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [m.assetId, m.amount]),
        });
      }
    }
    return this.push(input, logs);
  }

  push(input: Hex, logs: FakeTx["logs"]): Hex {
    const hash = keccak256(toHex(`tx${this.txs.length}`));
    this.txs.push({ hash, block: BigInt(this.txs.length + 1), input, logs });
    return hash;
  }

  client(): PublicClient {
    const rawLogs = (tx: FakeTx) => tx.logs.map((l, i) => ({ ...l, address: LEDGER, blockNumber: tx.block, logIndex: i, transactionHash: tx.hash }));
    return {
      getBlockNumber: async () => BigInt(this.txs.length),
      getLogs: async ({ fromBlock, toBlock }: { fromBlock: bigint; toBlock: bigint }) => this.txs.filter((t) => t.block >= fromBlock && t.block <= toBlock).flatMap(rawLogs),
      getTransaction: async ({ hash }: { hash: Hex }) => ({ ...this.txs.find((t) => t.hash === hash)!, to: LEDGER }),
      getTransactionReceipt: async ({ hash }: { hash: Hex }) => ({ logs: rawLogs(this.txs.find((t) => t.hash === hash)!) }),
      readContract: async ({ functionName }: { functionName: string }) => (functionName === "treasury" ? TREASURY : this.commitment),
    } as unknown as PublicClient;
  }
}

const grant = (account: Address, amount: bigint): JournalOp => ({ type: "CREDIT", account, assetId: 0n, amount, reason: 0 });

describe("replayLedger", () => {
  it("replays journal and legacy batches (calldata and transfer events) and matches every root and commitment", async () => {
    const chain = new FakeChain();
    await chain.journal([grant(A, 1_000_000n), grant(B, 1_000_000n)]);
    await chain.journal([{ type: "MATCH", maker: A, taker: B, marketId: 1n, side: 0, kind: 2, shares: 10_000n, priceBps: 3000, fee: 9n }]);
    await chain.legacy([{ account: A, id: 0n, delta: 500n, reason: 8 }, { account: B, id: 256n, delta: -100n, reason: 8 }], false);
    await chain.legacy([{ account: B, id: 0n, delta: 42n, reason: 0 }], true);
    await chain.journal([grant(A, 1n)]);
    const report = await replayLedger({ client: chain.client(), ledger: LEDGER, abi, chunkSize: 2n });
    assert.equal(report.mismatch, null);
    assert.equal(report.batches.length, 5);
    assert.deepEqual(report.batches.map((b) => b.kind), ["journal", "journal", "legacy", "legacy", "journal"]);
    assert.equal(await report.state.root(), chain.root);
    assert.equal(report.batches.at(-1)!.computedCommitment, chain.commitment);
  });

  it("stops at the first mismatch and says where", async () => {
    const chain = new FakeChain();
    await chain.journal([grant(A, 5n)]);
    const bad = await chain.journal([grant(B, 6n)], true);
    await chain.journal([grant(A, 7n)]);
    const report = await replayLedger({ client: chain.client(), ledger: LEDGER, abi });
    assert.ok(report.mismatch);
    assert.equal(report.mismatch.nonce, 2n);
    assert.equal(report.mismatch.txHash, bad);
    assert.equal(report.mismatch.rootOk, false);
    assert.equal(report.mismatch.expectedRoot, keccak256("0x01"));
    assert.equal(report.batches.length, 2);
  });

  it("stops after the requested transaction", async () => {
    const chain = new FakeChain();
    await chain.journal([grant(A, 5n)]);
    const second = await chain.journal([grant(B, 6n)]);
    await chain.journal([grant(A, 7n)]);
    const report = await replayLedger({ client: chain.client(), ledger: LEDGER, abi, untilTx: second });
    assert.equal(report.target?.nonce, 2n);
    assert.equal(report.state.balanceOf(A, 0n), 5n);
  });
});
