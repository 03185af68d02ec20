import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createPublicClient, http, type Address, type Hex } from "viem";
import { applyOps, LedgerState, type JournalOp } from "../../decoder";
import { replayLedger } from "../../decoder/replay/replay";
import { committedLedgerAbi } from "../../generated/abis";
import { openTestDatabase } from "../../test/support/db";
import { freePort } from "../../test/support/ports";
import type { Database } from "../db/client";
import { JournalWriter, opsFromJson, opsToJson, readAll } from "../journal";
import { Batcher, BatcherStoppedError, StaleBatchError, type BatcherOptions } from "./batcher";
import { LedgerChain } from "./chain";
import { deployLedger, FIRST_LEDGER_ADDRESS, OPERATOR_KEY, startChain, TREASURY } from "../../scripts/stack/chain";

const alice = "0x00000000000000000000000000000000000000a1" as Address;
const bob = "0x00000000000000000000000000000000000000b2" as Address;
const credit = (account: Address, amount: bigint): JournalOp => ({ type: "CREDIT", account, assetId: 0n, amount, reason: 0 });
const mint = (shares: bigint, priceBps: number): JournalOp => ({
  type: "MATCH",
  maker: alice,
  taker: bob,
  marketId: 1n,
  side: 0,
  kind: 2,
  shares,
  priceBps,
  fee: 3n,
});

/** Entry i: one or two ops, so whole-entry batching is visible. */
const opsOfEntry = (i: number): JournalOp[] => (i % 3 === 0 ? [credit(alice, 1000n + BigInt(i)), credit(bob, 1000n)] : [mint(10n + BigInt(i), 4000 + i)]);

async function appendEntries(db: Database, from: number, count: number): Promise<JournalOp[]> {
  const w = await JournalWriter.open(db);
  const all: JournalOp[] = [];
  await Promise.all(
    Array.from({ length: count }, (_, k) => {
      const ops = opsOfEntry(from + k);
      all.push(...ops);
      return w.append({ at: 1_000 + from + k, command: `{"i":${from + k}}`, ops: opsToJson(ops), opCount: ops.length, reports: [] });
    }),
  );
  return all;
}

async function rootOf(ops: JournalOp[]): Promise<Hex> {
  const s = new LedgerState();
  applyOps(s, ops, { treasury: TREASURY });
  return s.root();
}

const fastBackoff = { initialMs: 5, maxMs: 40 };

/** A batcher of the test operator on `chain`'s ledger, publishing every 50 ms with fast retries. */
const optionsOn = (db: Database, chain: { rpcUrl: string }, ledger: Address, extra: Partial<BatcherOptions>): BatcherOptions => ({
  db,
  rpcUrl: chain.rpcUrl,
  ledger,
  operatorKey: OPERATOR_KEY,
  treasury: TREASURY,
  intervalMs: 50,
  maxOps: 5,
  backoff: fastBackoff,
  ...extra,
});
const ZERO = `0x${"00".repeat(32)}` as Hex;

describe("Batcher on a real Hardhat node", () => {
  let chain: Awaited<ReturnType<typeof startChain>>;
  let ledger: Address;
  let db: Database;
  const published: JournalOp[] = [];
  const options = (extra: Partial<BatcherOptions> = {}): BatcherOptions => optionsOn(db, chain, ledger, extra);
  const head = () => new LedgerChain(chain.rpcUrl, ledger, OPERATOR_KEY).head();

  before(async () => {
    chain = await startChain(await freePort());
    ledger = await deployLedger(chain.rpcUrl);
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
    await chain.stop();
  });

  it("publishes whole entries in order; the decoder's replay of the chain gives the journal's root and commitment", async () => {
    published.push(...(await appendEntries(db, 0, 12)));
    const batcher = await Batcher.open(options());
    const confirmed = [];
    for (let b = await batcher.publishOnce(); b; b = await batcher.publishOnce()) confirmed.push(b);
    assert.ok(confirmed.length >= 3, `batches: ${confirmed.length}`);
    assert.deepEqual(
      confirmed.map((b) => b.nonce),
      confirmed.map((_, i) => BigInt(i + 1)),
    );
    assert.equal(confirmed[0].firstSeq, 1);
    assert.equal(confirmed.at(-1)!.lastSeq, 12);
    for (let i = 1; i < confirmed.length; i++) assert.equal(confirmed[i].firstSeq, confirmed[i - 1].lastSeq + 1);
    for (const b of confirmed) {
      assert.equal(b.status, "confirmed");
      assert.match(b.txHash ?? "", /^0x[0-9a-f]{64}$/);
      assert.ok(b.opCount >= 5 || b === confirmed.at(-1), "a batch closes only once maxOps ops are in it");
    }
    const h = await head();
    assert.equal(h.nonce, BigInt(confirmed.length));
    assert.equal(h.root, await rootOf(published));
    assert.equal(h.commitment, confirmed.at(-1)!.commitment);
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const report = await replayLedger({ client: client as never, ledger });
    assert.equal(report.mismatch, null);
    assert.equal(report.batches.length, confirmed.length);
    assert.equal(await report.state.root(), h.root);
    assert.equal(report.batches.at(-1)!.computedCommitment, h.commitment);
    assert.deepEqual(
      (await batcher.batches()).map((b) => b.nonce),
      confirmed.map((b) => b.nonce).reverse(),
    );
  });

  it("after a restart it continues the nonce and root chain from the journal", async () => {
    const batcher = await Batcher.open(options({ maxOps: 100 }));
    assert.equal(await batcher.publishOnce(), null, "nothing new to publish");
    published.push(...(await appendEntries(db, 12, 4)));
    const b = await batcher.publishOnce();
    const h = await head();
    assert.equal(b!.nonce, h.nonce);
    assert.equal(b!.firstSeq, 13);
    assert.equal(h.root, await rootOf(published));
  });

  it("a batch whose transaction landed before a crash is recorded as confirmed, not sent again", async () => {
    published.push(...(await appendEntries(db, 16, 3)));
    // A batcher that cannot reach the chain builds and stores the batch, then is stopped while it backs off.
    let crashed!: Batcher;
    crashed = await Batcher.open(options({ rpcUrl: `http://127.0.0.1:${await freePort()}`, maxOps: 100, sleep: async () => void crashed.stop() }));
    await assert.rejects(crashed.publishOnce(), BatcherStoppedError);
    const [row] = await crashed.batches(1);
    assert.equal(row.status, "pending");
    assert.equal(row.attempts, 0);
    assert.ok(row.error);
    // "The earlier process" got its transaction in before dying.
    const tx = await new LedgerChain(chain.rpcUrl, ledger, OPERATOR_KEY).send(row);
    const before = await head();
    assert.equal(before.nonce, row.nonce);
    const b = await (await Batcher.open(options({ maxOps: 100 }))).publishOnce();
    assert.equal(b!.nonce, row.nonce);
    assert.equal(b!.status, "confirmed");
    assert.equal(b!.txHash, tx);
    assert.equal(b!.attempts, 0, "no second send");
    assert.equal((await head()).nonce, row.nonce);
  });

  it("detects a stale nonce when someone else committed, halts and sends nothing", async () => {
    const h = await head();
    // Someone else commits the next nonce with the operator key.
    const other = new LedgerChain(chain.rpcUrl, ledger, OPERATOR_KEY);
    const { encodePayload, payloadHashOf } = await import("../../decoder");
    const payload = encodePayload([credit(bob, 1n)], { treasury: TREASURY });
    const foreignRoot = `0x${"ab".repeat(32)}` as Hex;
    await other.receipt(
      await other.send({
        nonce: h.nonce + 1n,
        prevRoot: h.root,
        root: foreignRoot,
        prevCommitment: h.commitment,
        payloadHash: payloadHashOf(payload),
        payload: `0x${Buffer.from(payload).toString("hex")}`,
      }),
    );
    published.push(...(await appendEntries(db, 19, 2)));
    const batcher = await Batcher.open(options({ maxOps: 100 }));
    await assert.rejects(batcher.publishOnce(), StaleBatchError);
    assert.ok(batcher.halted instanceof StaleBatchError);
    const [row] = await batcher.batches(1);
    assert.equal(row.nonce, h.nonce + 1n);
    assert.equal(row.status, "pending");
    assert.match(row.error ?? "", /stale/);
    const after = await head();
    assert.equal(after.nonce, h.nonce + 1n);
    assert.equal(after.root, foreignRoot);
    await assert.rejects(batcher.publishOnce(), StaleBatchError, "a halted batcher stays halted");
    // A fresh journal (nonce 1) against this chain is stale too: the chain holds another batch 1.
    const other2 = await openTestDatabase();
    try {
      await appendEntries(other2, 0, 1);
      await assert.rejects((await Batcher.open(options({ db: other2 }))).publishOnce(), /holds another batch 1/);
    } finally {
      await other2.close();
    }
  });

  it("a resumed journal on an empty chain (a fresh local node or a new ledger) sends its batches again in order, before anything new", async () => {
    const db3 = await openTestDatabase();
    const chainA = await startChain(await freePort());
    const chainB = await startChain(await freePort());
    try {
      const ops = await appendEntries(db3, 0, 9);
      const ledgerA = await deployLedger(chainA.rpcUrl);
      const onA = await Batcher.open(options({ db: db3, rpcUrl: chainA.rpcUrl, ledger: ledgerA, maxOps: 4 }));
      const first: bigint[] = [];
      for (let b = await onA.publishOnce(); b; b = await onA.publishOnce()) first.push(b.nonce);
      assert.ok(first.length >= 2);
      // The next start finds a new, empty ledger: nothing new to build, yet the chain must hold the history.
      const ledgerB = await deployLedger(chainB.rpcUrl);
      const onB = await Batcher.open(options({ db: db3, rpcUrl: chainB.rpcUrl, ledger: ledgerB, maxOps: 4 }));
      const caught = await onB.publishOnce();
      assert.equal(caught!.nonce, BigInt(first.length));
      assert.equal(await onB.publishOnce(), null, "then nothing is left to publish");
      const headB = await new LedgerChain(chainB.rpcUrl, ledgerB, OPERATOR_KEY).head();
      assert.equal(headB.nonce, BigInt(first.length));
      assert.equal(headB.root, await rootOf(ops));
      assert.equal(headB.commitment, caught!.commitment);
      for (const row of await onB.batches()) assert.equal(row.status, "confirmed");
      // A row below the tip left `sent` (a process that died mid catch-up) is confirmed from the chain on the next
      // open, with the transaction that landed, and nothing is sent again.
      const landedTx = (await onB.batches()).find((r) => r.nonce === 1n)!.txHash;
      await db3.query(`UPDATE ledger_batches SET status = 'sent', tx_hash = $1 WHERE nonce = 1`, [`0x${"ee".repeat(32)}`]);
      const reopened = await Batcher.open(options({ db: db3, rpcUrl: chainB.rpcUrl, ledger: ledgerB, maxOps: 4 }));
      const healed = await reopened.publishOnce();
      assert.equal(healed!.nonce, 1n);
      assert.equal(healed!.status, "confirmed");
      assert.equal(healed!.txHash, landedTx);
      assert.equal((await new LedgerChain(chainB.rpcUrl, ledgerB, OPERATOR_KEY).head()).nonce, BigInt(first.length), "nothing sent");
      // A chain whose head is a batch this journal never built is not caught up: the batcher halts.
      const chainC = await startChain(await freePort());
      try {
        const ledgerC = await deployLedger(chainC.rpcUrl);
        const { encodePayload, payloadHashOf } = await import("../../decoder");
        const payload = encodePayload([credit(bob, 7n)], { treasury: TREASURY });
        const c = new LedgerChain(chainC.rpcUrl, ledgerC, OPERATOR_KEY);
        await c.receipt(
          await c.send({
            nonce: 1n,
            prevRoot: ZERO,
            root: `0x${"cd".repeat(32)}`,
            prevCommitment: ZERO,
            payloadHash: payloadHashOf(payload),
            payload: `0x${Buffer.from(payload).toString("hex")}`,
          }),
        );
        const onC = await Batcher.open(options({ db: db3, rpcUrl: chainC.rpcUrl, ledger: ledgerC }));
        await assert.rejects(onC.publishOnce(), /not this journal's/);
        assert.ok(onC.halted instanceof StaleBatchError);
        assert.equal((await c.head()).nonce, 1n, "nothing sent");
      } finally {
        await chainC.stop();
      }
    } finally {
      await db3.close();
      await chainA.stop();
      await chainB.stop();
    }
  });

  it("the timer loop publishes without being called, a full batch wakes it early, and stop() waits for it", async () => {
    const db2 = await openTestDatabase();
    const chain2 = await startChain(await freePort());
    try {
      const ledger2 = await deployLedger(chain2.rpcUrl);
      await appendEntries(db2, 0, 3);
      const batcher = await Batcher.open(options({ db: db2, rpcUrl: chain2.rpcUrl, ledger: ledger2, intervalMs: 30 }));
      batcher.start();
      const h = new LedgerChain(chain2.rpcUrl, ledger2, OPERATOR_KEY);
      for (let i = 0; i < 200 && (await h.head()).nonce === 0n; i++) await new Promise((r) => setTimeout(r, 50));
      await batcher.stop();
      assert.equal((await h.head()).nonce, 1n);
      // A full batch wakes a batcher whose interval is far away.
      await appendEntries(db2, 3, 4);
      const eager = await Batcher.open(options({ db: db2, rpcUrl: chain2.rpcUrl, ledger: ledger2, intervalMs: 600_000, maxOps: 5 }));
      eager.start();
      eager.noteAppended(3);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await h.head()).nonce, 1n, "below maxOps nothing happens before the interval");
      eager.noteAppended(2);
      for (let i = 0; i < 200 && (await h.head()).nonce === 1n; i++) await new Promise((r) => setTimeout(r, 50));
      await eager.stop();
      assert.equal((await h.head()).nonce, 2n);
    } finally {
      await db2.close();
      await chain2.stop();
    }
  });
});

describe("Batcher through an RPC outage", () => {
  it("retries with capped exponential backoff until the node answers, commits exactly once, and catches a chain that comes back reset up", async () => {
    const db = await openTestDatabase();
    const port = await freePort();
    const rpcUrl = `http://127.0.0.1:${port}`;
    let chain: Awaited<ReturnType<typeof startChain>> | null = null;
    try {
      const ops = await appendEntries(db, 0, 4);
      const delays: number[] = [];
      let phase = 1;
      const batcher = await Batcher.open({
        db,
        rpcUrl,
        ledger: FIRST_LEDGER_ADDRESS,
        operatorKey: OPERATOR_KEY,
        treasury: TREASURY,
        intervalMs: 1000,
        maxOps: 100,
        backoff: { initialMs: 10, maxMs: 40 },
        sleep: async (ms) => {
          delays.push(ms);
          if (phase === 2) return new Promise((r) => setTimeout(r, ms));
          if (delays.length === 5) {
            // The node comes back (with the ledger at its usual address) after five failed attempts.
            chain = await startChain(port);
            assert.equal((await deployLedger(rpcUrl)).toLowerCase(), FIRST_LEDGER_ADDRESS.toLowerCase());
          }
        },
      });
      const b = await batcher.publishOnce();
      assert.deepEqual(delays, [10, 20, 40, 40, 40]);
      assert.equal(b!.status, "confirmed");
      assert.equal(b!.attempts, 1, "one transaction sent");
      const h = await new LedgerChain(rpcUrl, FIRST_LEDGER_ADDRESS, OPERATOR_KEY).head();
      assert.equal(h.nonce, 1n);
      assert.equal(h.root, await rootOf(ops));
      const client = createPublicClient({ transport: http(rpcUrl) });
      const logs = await client.getContractEvents({
        address: FIRST_LEDGER_ADDRESS,
        abi: committedLedgerAbi,
        eventName: "JournalBatchCommitted",
        fromBlock: 0n,
      });
      assert.equal(logs.length, 1);
      assert.equal(await batcher.publishOnce(), null);

      // The node goes away and comes back EMPTY (a reset local chain): after the outage the batcher finds the chain
      // behind its journal, sends batch 1 again with its stored bytes, then batch 2 on top of it.
      await chain!.stop();
      const more = await appendEntries(db, 4, 2);
      delays.length = 0;
      phase = 2;
      const resumed = batcher.publishOnce();
      const restarted = (async () => {
        while (delays.length < 2) await new Promise((r) => setTimeout(r, 20));
        chain = await startChain(port);
        await deployLedger(rpcUrl);
      })();
      const [outcome] = await Promise.allSettled([resumed, restarted]);
      assert.equal(outcome.status, "fulfilled", String((outcome as PromiseRejectedResult).reason));
      const b2 = (outcome as PromiseFulfilledResult<Awaited<typeof resumed>>).value!;
      assert.equal(b2.nonce, 2n);
      assert.equal(b2.status, "confirmed");
      const after = await new LedgerChain(rpcUrl, FIRST_LEDGER_ADDRESS, OPERATOR_KEY).head();
      assert.equal(after.nonce, 2n);
      assert.equal(after.root, await rootOf([...ops, ...more]));
      const [, first] = await batcher.batches(2);
      assert.equal(first.nonce, 1n);
      assert.equal(first.status, "confirmed");
      // (The same signed transaction on a fresh node: its hash may equal the first one's; the events prove it landed.)
      const again = await createPublicClient({ transport: http(rpcUrl) }).getContractEvents({
        address: FIRST_LEDGER_ADDRESS,
        abi: committedLedgerAbi,
        eventName: "JournalBatchCommitted",
        fromBlock: 0n,
      });
      assert.deepEqual(
        again.map((l) => l.args.nonce),
        [1n, 2n],
        "batch 1 was sent again on the new chain, then batch 2",
      );
      const replay = await replayLedger({ client: createPublicClient({ transport: http(rpcUrl) }) as never, ledger: FIRST_LEDGER_ADDRESS });
      assert.equal(replay.mismatch, null);
      assert.equal(await replay.state.root(), after.root);
    } finally {
      await db.close();
      if (chain) await (chain as { stop: () => Promise<void> }).stop();
    }
  });
});

describe("Batcher: an entry larger than a batch (a market's finality paying every holder)", () => {
  let chain: Awaited<ReturnType<typeof startChain>>;
  let ledger: Address;
  let db: Database;
  before(async () => {
    chain = await startChain(await freePort());
    ledger = await deployLedger(chain.rpcUrl);
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
    await chain.stop();
  });
  /** Payloads of at most this many bytes: an entry of a hundred credits spans several batches. */
  const budget = 600;
  const splitting = (extra: Partial<BatcherOptions>): BatcherOptions => optionsOn(db, chain, ledger, { maxOps: 1_000, maxPayloadBytes: budget, ...extra });

  it("splits it at op boundaries under the byte budget, resumes a split after a restart, and replays to the same roots", async () => {
    const holder = (i: number) => `0x${(0x5000 + i).toString(16).padStart(40, "0")}` as Address;
    const entries: JournalOp[][] = [
      [credit(alice, 10n), credit(bob, 20n), credit(alice, 5n)],
      Array.from({ length: 120 }, (_, i) => credit(holder(i), 1_000n + BigInt(i))),
      [], // an entry without ops rides along
      [credit(bob, 7n), credit(holder(3), 9n)],
    ];
    const w = await JournalWriter.open(db);
    await Promise.all(entries.map((ops, i) => w.append({ at: i, command: `{"i":${i}}`, ops: opsToJson(ops), opCount: ops.length, reports: [] })));
    const all = entries.flat();
    const seen: bigint[] = [];
    const options = splitting({ onConfirmed: (b) => seen.push(b.nonce) });
    const rows = [];
    const first = await (await Batcher.open(options)).publishOnce();
    rows.push(first!);
    assert.equal(first!.firstSeq, 1);
    assert.equal(first!.lastSeq, 2, "the first batch ends inside entry 2");
    // A new process continues inside entry 2 from the rows alone.
    const again = await Batcher.open(options);
    for (let b = await again.publishOnce(); b; b = await again.publishOnce()) rows.push(b);
    assert.ok(rows.length >= 4, `batches: ${rows.length}`);
    assert.deepEqual(
      seen,
      rows.map((b) => b.nonce),
    );
    assert.equal(
      rows.reduce((n, b) => n + b.opCount, 0),
      all.length,
      "every op once",
    );
    for (const b of rows) assert.ok((b.payload.length - 2) / 2 <= budget, `batch ${b.nonce}: ${(b.payload.length - 2) / 2} bytes`);
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i].firstSeq === rows[i - 1].lastSeq || rows[i].firstSeq === rows[i - 1].lastSeq + 1);
    assert.ok(rows.filter((b) => b.firstSeq <= 2 && b.lastSeq >= 2).length >= 3, "entry 2 spans several batches");
    assert.equal(rows.at(-1)!.lastSeq, 4);
    const h = await new LedgerChain(chain.rpcUrl, ledger, OPERATOR_KEY).head();
    assert.equal(h.root, await rootOf(all));
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const report = await replayLedger({ client: client as never, ledger });
    assert.equal(report.mismatch, null);
    assert.deepEqual(
      report.batches.map((b) => [b.rootOk, b.commitmentOk, b.ops.length]),
      rows.map((b) => [true, true, b.opCount]),
    );
    assert.equal(await (await Batcher.open(options)).publishOnce(), null, "nothing left after a restart");
  });

  it("starts from the ledger snapshot of its last rows, even one taken inside a split entry, and sets a wrong one aside", async () => {
    const holder = (i: number) => `0x${(0x6000 + i).toString(16).padStart(40, "0")}` as Address;
    const entries: JournalOp[][] = [[credit(alice, 3n)], Array.from({ length: 90 }, (_, i) => credit(holder(i), 500n + BigInt(i))), [credit(bob, 4n)]];
    const w = await JournalWriter.open(db);
    await Promise.all(entries.map((ops, i) => w.append({ at: i, command: `{"j":${i}}`, ops: opsToJson(ops), opCount: ops.length, reports: [] })));
    const all: JournalOp[] = []; // the journal's every op: the earlier test's entries too
    for await (const e of readAll(db)) all.push(...opsFromJson(e.ops));
    const rebuilt: Record<string, unknown>[] = [];
    const warned: string[] = [];
    const log = {
      info: (o: object, msg?: string) => msg?.startsWith("the ledger after") && rebuilt.push(o as never),
      warn: (_o: object, m?: string) => warned.push(m ?? ""),
      error() {},
    };
    const options = splitting({ snapshotEvery: 1, log });
    const first = (await (await Batcher.open(options)).publishOnce())!;
    const [snap] = await db.query<{ nonce: string; cursor_taken: number; cursor_total: number }>(
      `SELECT nonce::text, cursor_taken, cursor_total FROM ledger_snapshots`,
    );
    assert.equal(snap?.nonce, first.nonce.toString(), "the snapshot of the row just built (the only one kept)");
    assert.ok(snap!.cursor_taken < snap!.cursor_total, "taken inside the split entry");
    // A new process restores it and applies no op; it continues inside the entry.
    const again = await Batcher.open(options);
    assert.deepEqual(rebuilt.at(-1), { lastBatch: first.nonce.toString(), snapshotNonce: first.nonce.toString(), opsApplied: 0 });
    const next = (await again.publishOnce())!;
    assert.equal(next.firstSeq, first.lastSeq, "the next batch starts inside the same entry");
    // A snapshot whose balances do not give its row's root is set aside: the whole journal is read instead.
    await db.query(`UPDATE ledger_snapshots SET balances = '[]'`);
    const third = await Batcher.open(options);
    assert.match(warned.join("\n"), /set aside/);
    assert.equal(rebuilt.at(-1)!.snapshotNonce, null);
    for (let b = await third.publishOnce(); b; b = await third.publishOnce());
    await third.stop();
    const h = await new LedgerChain(chain.rpcUrl, ledger, OPERATOR_KEY).head();
    assert.equal(h.root, await rootOf(all));
    // stop() stored the ledger after the last row: the next start applies nothing.
    await Batcher.open(options);
    assert.deepEqual(rebuilt.at(-1), { lastBatch: h.nonce.toString(), snapshotNonce: h.nonce.toString(), opsApplied: 0 });
  });
});
