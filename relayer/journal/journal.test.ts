import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Address } from "viem";
import { openTestDatabase } from "../../test/support/db";
import type { Database } from "../db/client";
import type { JournalOp } from "../../decoder";
import { JournalFailedError, JournalWriter, LARGE_OPS_CHARS, listBatches, opsFromJson, opsToJson, readAll, readFrom, reportsOf } from "./index";

const alice = "0x00000000000000000000000000000000000000a1" as Address;
const bob = "0x00000000000000000000000000000000000000b2" as Address;
const credit = (account: Address, amount: bigint): JournalOp => ({ type: "CREDIT", account, assetId: 0n, amount, reason: 0 });

describe("journal ops JSON", () => {
  it("round-trips every bigint field", () => {
    const ops: JournalOp[] = [
      credit(alice, 10n ** 30n),
      { type: "MATCH", maker: alice, taker: bob, marketId: 7n, side: 1, kind: 2, shares: 123n, priceBps: 4500, fee: 9n },
      { type: "LMSR_TRADE", account: bob, marketId: 3n, side: 0, direction: "SELL", shares: 5n, collateral: 4n, fee: 1n },
    ];
    assert.deepEqual(opsFromJson(opsToJson(ops)), ops);
  });
});

describe("JournalWriter (group commit)", () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it("resolves every waiter with its seq in call order, in far fewer transactions than appends", async () => {
    const w = await JournalWriter.open(db);
    const n = 300;
    const seqs = await Promise.all(
      Array.from({ length: n }, (_, i) => {
        const account = i % 2 ? alice : bob;
        const ops = [credit(account, BigInt(i + 1))];
        return w.append({
          at: 1000 + i,
          command: JSON.stringify({ type: "credit", i }),
          ops: opsToJson(ops),
          opCount: 1,
          reports: [{ account, seq: Math.floor(i / 2) + 1, at: 1000 + i, body: JSON.stringify({ i }) }],
        });
      }),
    );
    assert.deepEqual(
      seqs,
      Array.from({ length: n }, (_, i) => i + 1),
    );
    assert.ok(w.stats.flushes >= 1 && w.stats.flushes < n / 10, `flushes ${w.stats.flushes}`);
    const stored = [];
    for await (const e of readAll(db, 0, 64)) stored.push(e);
    assert.equal(stored.length, n);
    stored.forEach((e, i) => {
      assert.equal(e.seq, i + 1);
      assert.equal(e.at, 1000 + i);
      assert.equal(JSON.parse(e.command).i, i);
      assert.equal(opsFromJson(e.ops)[0].type, "CREDIT");
    });
    const aliceReports = await reportsOf(db, alice, 10, 5);
    assert.deepEqual(
      aliceReports.map((r) => r.seq),
      [10, 11, 12, 13, 14],
    );
    assert.equal(JSON.parse(aliceReports[0].body).i, 19);
    assert.equal(aliceReports[0].entrySeq, 20);
    assert.deepEqual(
      (await readFrom(db, 298)).map((e) => e.seq),
      [299, 300],
    );
  });

  it("appends made while a flush runs wait for the next flush", async () => {
    const w = await JournalWriter.open(db);
    const base = w.nextSeq;
    const before = w.stats.flushes;
    const entry = (i: number) => ({ at: 5000 + i, command: `{"i":${i}}`, ops: "[]", opCount: 0, reports: [] });
    const first = w.append(entry(0));
    await new Promise((r) => setImmediate(r)); // the first flush is now in flight
    const later = [w.append(entry(1)), w.append(entry(2)), w.append(entry(3))];
    let firstDone = false;
    void first.then(() => (firstDone = true));
    const seqs = await Promise.all(later);
    assert.ok(firstDone);
    assert.deepEqual([await first, ...seqs], [base, base + 1, base + 2, base + 3]);
    assert.equal(w.stats.flushes - before, 2);
    assert.equal(w.stats.largestFlush >= 3, true);
  });

  it("a large entry (a finality's ops) commits by its own statement in the same transaction as the small ones beside it", async () => {
    const w = await JournalWriter.open(db);
    const base = w.nextSeq;
    const many = Array.from({ length: 4_000 }, (_, i) => credit(`0x${(i + 1).toString(16).padStart(40, "0")}` as Address, BigInt(i + 1)));
    const big = opsToJson(many);
    assert.ok(big.length >= LARGE_OPS_CHARS, `${big.length} chars`);
    const flushes = w.stats.flushes;
    const seqs = await Promise.all([
      w.append({ at: 7000, command: `{"i":0}`, ops: opsToJson([credit(alice, 1n)]), opCount: 1, reports: [] }),
      w.append({
        at: 7001,
        command: `{"type":"advanceLifecycle"}`,
        ops: big,
        opCount: many.length,
        reports: [{ account: alice, seq: 777, at: 7001, body: `{"big":true}` }],
      }),
      w.append({ at: 7002, command: `{"i":2}`, ops: "[]", opCount: 0, reports: [] }),
    ]);
    assert.deepEqual(seqs, [base, base + 1, base + 2]);
    assert.equal(w.stats.flushes - flushes, 1, "one transaction");
    const stored = await readFrom(db, base - 1, 3);
    assert.deepEqual(
      stored.map((e) => [e.seq, e.at, e.opCount]),
      [
        [base, 7000, 1],
        [base + 1, 7001, many.length],
        [base + 2, 7002, 0],
      ],
    );
    assert.equal(stored[1].ops, big);
    assert.deepEqual(JSON.parse(stored[1].command), { type: "advanceLifecycle" });
    assert.deepEqual(opsFromJson(stored[1].ops), many);
    const [report] = await reportsOf(db, alice, 777, 1);
    assert.equal(report.entrySeq, base + 1);
  });

  it("a failed flush writes nothing of its entries, rejects its waiters and every later append", async () => {
    const w = await JournalWriter.open(db);
    const seq = w.nextSeq;
    // Another writer took the next seq behind this one's back: the flush hits the primary key.
    await db.query(`INSERT INTO journal_entries (seq, at, command, ops, op_count) VALUES ($1, 0, '{}', '[]', 0)`, [seq]);
    const results = await Promise.allSettled([
      w.append({ at: 1, command: "{}", ops: "[]", opCount: 0, reports: [{ account: alice, seq: 9999, at: 1, body: "{}" }] }),
      w.append({ at: 2, command: "{}", ops: "[]", opCount: 0, reports: [] }),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ["rejected", "rejected"],
    );
    assert.ok((results[0] as PromiseRejectedResult).reason instanceof JournalFailedError);
    await assert.rejects(w.append({ at: 3, command: "{}", ops: "[]", opCount: 0, reports: [] }), JournalFailedError);
    assert.equal((await reportsOf(db, alice, 9999, 1)).length, 0);
    assert.equal((await readFrom(db, seq - 1)).length, 1);
    assert.deepEqual(await listBatches(db), []);
  });
});
