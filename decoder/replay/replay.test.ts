/**
 * Replay against an in-memory fake RPC client. The ABI here is a test fixture shaped like the spec's
 * CommittedLedger interface (the real one comes from generated/abis.ts; the e2e test uses it).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { encodeAbiParameters, encodeEventTopics, encodeFunctionData, keccak256, parseAbi, toHex, type Address, type Hex, type PublicClient } from "viem";
import { replayLedger } from "./replay";
import { BallotBook } from "./ballots";
import { LedgerState } from "../ledger/state";
import { encodePayload } from "../journal/codec";
import { applyOps } from "../journal/movements";
import { journalCommitmentOf, ZERO_HASH } from "../journal/commitment";
import { legacyCalldataMovements } from "./legacy";
import type { JournalOp } from "../journal/ops";
import { outcomeAssetId } from "../assets";
import { ballotHashOf } from "../journal/ballot";

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

interface FakeTx {
  hash: Hex;
  block: bigint;
  input: Hex;
  to: Address;
  logs: { topics: Hex[]; data: Hex }[];
}

/** Builds a fake chain of batches, committing the roots a correct operator would (or tampered ones). */
class FakeChain {
  txs: FakeTx[] = [];
  state = new LedgerState();
  nonce = 0n;
  root: Hex = ZERO_HASH;
  commitment: Hex = ZERO_HASH;

  /** Scan ranges asked of getLogs. */
  scanned: [bigint, bigint][] = [];

  /** A journal batch; `unchecked` commits ops whose movements may fail (the root is then the state's so far). */
  async journal(ops: JournalOp[], tamperRoot = false, unchecked = false): Promise<Hex> {
    const payload = toHex(encodePayload(ops, { treasury: TREASURY }));
    try {
      applyOps(this.state, ops, { treasury: TREASURY });
    } catch (e) {
      if (!unchecked) throw e;
    }
    const newRoot = tamperRoot ? keccak256("0x01") : await this.state.root();
    this.nonce += 1n;
    const input = encodeFunctionData({
      abi,
      functionName: "commitJournalBatch",
      args: [this.nonce, this.root, newRoot, this.commitment, keccak256(payload), payload],
    });
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
    const logs = [
      {
        topics: encodeEventTopics({ abi, eventName: "BatchCommitted", args: { nonce: this.nonce } }) as Hex[],
        data: encodeAbiParameters([{ type: "bytes32" }], [newRoot]),
      },
    ];
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

  push(input: Hex, logs: FakeTx["logs"], to: Address = LEDGER): Hex {
    const hash = keccak256(toHex(`tx${this.txs.length}`));
    this.txs.push({ hash, block: BigInt(this.txs.length + 1), input, to, logs });
    return hash;
  }

  client(): PublicClient {
    const rawLogs = (tx: FakeTx) => tx.logs.map((l, i) => ({ ...l, address: LEDGER, blockNumber: tx.block, logIndex: i, transactionHash: tx.hash }));
    return {
      getBlockNumber: async () => BigInt(this.txs.length),
      getLogs: async ({ fromBlock, toBlock }: { fromBlock: bigint; toBlock: bigint }) => {
        this.scanned.push([fromBlock, toBlock]);
        return this.txs.filter((t) => t.block >= fromBlock && t.block <= toBlock).flatMap(rawLogs);
      },
      getTransaction: async ({ hash }: { hash: Hex }) => this.txs.find((t) => t.hash === hash)!,
      getTransactionReceipt: async ({ hash }: { hash: Hex }) => ({ logs: rawLogs(this.txs.find((t) => t.hash === hash)!) }),
      readContract: async ({ functionName }: { functionName: string }) => (functionName === "treasury" ? TREASURY : this.commitment),
    } as unknown as PublicClient;
  }
}

const grant = (account: Address, amount: bigint): JournalOp => ({ type: "CREDIT", account, assetId: 0n, amount, reason: 0 });
const SALT: Hex = `0x${"5a".repeat(32)}`;
const lock = (account: Address, outcome: 0 | 1): JournalOp => ({
  type: "STAKE_LOCK",
  marketId: 7n,
  session: 1,
  account,
  amount: 100n,
  ballotHash: ballotHashOf({ marketId: 7n, session: 1, account, outcome, salt: SALT }),
});
const reveal = (account: Address, outcome: 0 | 1): JournalOp => ({ type: "BALLOT_REVEAL", marketId: 7n, session: 1, account, outcome, salt: SALT });

describe("replayLedger", () => {
  it("replays journal and legacy batches (calldata and transfer events) and matches every root and commitment", async () => {
    const chain = new FakeChain();
    await chain.journal([grant(A, 1_000_000n), grant(B, 1_000_000n)]);
    await chain.journal([{ type: "MATCH", maker: A, taker: B, marketId: 1n, side: 0, kind: 2, shares: 10_000n, priceBps: 3000, fee: 9n }]);
    await chain.legacy(
      [
        { account: A, id: 0n, delta: 500n, reason: 8 },
        { account: B, id: 256n, delta: -100n, reason: 8 },
      ],
      false,
    );
    await chain.legacy([{ account: B, id: 0n, delta: 42n, reason: 0 }], true);
    await chain.journal([grant(A, 1n)]);
    const report = await replayLedger({ client: chain.client(), ledger: LEDGER, abi, chunkSize: 2n });
    assert.equal(report.mismatch, null);
    assert.equal(report.batches.length, 5);
    assert.deepEqual(
      report.batches.map((b) => b.kind),
      ["journal", "journal", "legacy", "legacy", "journal"],
    );
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

  it("starts the scan at fromBlock and reports each getLogs chunk", async () => {
    const chain = new FakeChain();
    for (let i = 0; i < 5; i++) await chain.journal([grant(A, BigInt(i + 1))]);
    const scans: [bigint, bigint][] = [];
    const applied: [number, number][] = [];
    const report = await replayLedger({
      client: chain.client(),
      ledger: LEDGER,
      abi,
      chunkSize: 2n,
      onScan: (done, total) => scans.push([done, total]),
      onProgress: (done, total) => applied.push([done, total]),
    });
    assert.equal(report.mismatch, null);
    assert.deepEqual(chain.scanned, [
      [0n, 1n],
      [2n, 3n],
      [4n, 5n],
    ]);
    assert.deepEqual(scans, [
      [2n, 6n],
      [4n, 6n],
      [6n, 6n],
    ]);
    assert.deepEqual(applied, [
      [1, 5],
      [2, 5],
      [3, 5],
      [4, 5],
      [5, 5],
    ]);

    chain.scanned = [];
    await replayLedger({ client: chain.client(), ledger: LEDGER, abi, chunkSize: 2n, fromBlock: 1n });
    assert.deepEqual(chain.scanned, [
      [1n, 2n],
      [3n, 4n],
      [5n, 5n],
    ]);
  });

  it("a scan that starts after the first batch reports the nonce gap instead of a bare root mismatch", async () => {
    const chain = new FakeChain();
    await chain.journal([grant(A, 5n)]);
    await chain.journal([grant(B, 6n)]);
    const report = await replayLedger({ client: chain.client(), ledger: LEDGER, abi, fromBlock: 2n });
    assert.equal(report.mismatch?.nonce, 2n);
    assert.match(report.mismatch?.error ?? "", /expected batch nonce 1 but found 2: earlier batches were not read \(scan started at block 2\)/);
  });

  it("a failing movement names the op: its index within the batch and its kind", async () => {
    const chain = new FakeChain();
    // A holds the int256 maximum of PM; the match's first leg (maker B pays A the notional) overflows it.
    const max = (1n << 255n) - 1n;
    const other: JournalOp = { type: "CREDIT", account: B, assetId: outcomeAssetId(9n, 1), amount: 10n, reason: 0 };
    await chain.journal(
      [other, grant(A, max), { type: "MATCH", maker: B, taker: A, marketId: 3n, side: 0, kind: 1, shares: 10_000n, priceBps: 5000, fee: 0n }],
      false,
      true,
    );
    const report = await replayLedger({ client: chain.client(), ledger: LEDGER, abi });
    assert.deepEqual(report.mismatch?.failedOp, { index: 2, kind: "MATCH TAKER_SELLS" });
    assert.match(report.mismatch?.error ?? "", /^op 2 \(MATCH TAKER_SELLS\) failed: movement of 5000 of asset 0 /);
  });

  it("a batch event whose transaction calls another contract is NOT_A_BATCH, checked before the calldata is decoded", async () => {
    const chain = new FakeChain();
    await chain.journal([grant(A, 5n)]);
    const topics = encodeEventTopics({ abi, eventName: "JournalBatchCommitted", args: { nonce: 2n } }) as Hex[];
    chain.push("0xdeadbeef", [{ topics, data: encodeAbiParameters([{ type: "bytes32" }, { type: "bytes32" }], [ZERO_HASH, ZERO_HASH]) }], B);
    await assert.rejects(
      replayLedger({ client: chain.client(), ledger: LEDGER, abi }),
      (e: Error & { code?: string }) => e.code === "NOT_A_BATCH" && /does not call the ledger directly/.test(e.message),
    );
  });

  it("checks each ballot reveal against the lock of an earlier batch; a changed ballot stops the replay with root and commitment ok", async () => {
    const chain = new FakeChain();
    await chain.journal([grant(A, 1_000n), grant(B, 1_000n)]);
    await chain.journal([lock(A, 1), lock(B, 0)]);
    await chain.journal([grant(A, 1n)]);
    await chain.journal([reveal(A, 1)]);
    const changed = await chain.journal([reveal(B, 1)]);
    await chain.journal([grant(B, 1n)]);
    const report = await replayLedger({ client: chain.client(), ledger: LEDGER, abi });
    assert.equal(report.batches.length, 5);
    assert.deepEqual(
      report.batches.slice(0, 4).map((b) => b.ballotOk),
      [true, true, true, true],
    );
    const bad = report.mismatch!;
    assert.equal(bad.txHash, changed);
    assert.equal(bad.rootOk, true);
    assert.equal(bad.commitmentOk, true);
    assert.equal(bad.ballotOk, false);
    assert.deepEqual(
      bad.ballotFailures.map((f) => [f.index, f.code, f.account]),
      [[0, "BALLOT_MISMATCH", B]],
    );
    assert.equal(bad.error, undefined);
  });

  it("a resume carries the pending ballots, so a reveal after the resume point is checked against its earlier lock", async () => {
    const chain = new FakeChain();
    await chain.journal([grant(A, 1_000n), lock(A, 1)]);
    const first = await replayLedger({ client: chain.client(), ledger: LEDGER, abi });
    assert.equal(first.mismatch, null);
    assert.equal(first.ballots.size, 1);
    await chain.journal([reveal(A, 1)]);
    const resume = { state: first.state, ballots: first.ballots, commitment: first.batches.at(-1)!.computedCommitment, nonce: 1n };
    const second = await replayLedger({ client: chain.client(), ledger: LEDGER, abi, fromBlock: first.toBlock + 1n, resume });
    assert.equal(second.mismatch, null);
    assert.equal(second.batches.length, 1);
    assert.equal(second.ballots.size, 0);
    // Without the earlier lock (a fresh book), the same reveal has no lock.
    const state = (await replayLedger({ client: chain.client(), ledger: LEDGER, abi, toBlock: first.toBlock })).state;
    const blind = await replayLedger({
      client: chain.client(),
      ledger: LEDGER,
      abi,
      fromBlock: first.toBlock + 1n,
      resume: { ...resume, state, ballots: new BallotBook() },
    });
    assert.deepEqual(
      blind.mismatch?.ballotFailures.map((f) => f.code),
      ["BALLOT_NO_LOCK"],
    );
  });
});
