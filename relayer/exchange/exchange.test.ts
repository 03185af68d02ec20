import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { openTestDatabase, suiteDatabase } from "../../test/support/db";
import { manualClock, systemClock } from "../clock";
import type { ExecutionReport } from "../engine";
import { readFrom } from "../journal";
import { DeterminismError, Exchange, JournalReplay, type Submitted } from "./exchange";
import { expectAccepted, runEngineConfig, setupCommands, traderOf, tradeCommands } from "./trading-run";

const TRADERS = 4;

/** The code of a refused submit (fails when it was accepted). */
function refusedWith(r: Submitted): string {
  assert.equal(r.ok, false, "the command was accepted");
  return r.ok ? "" : r.code;
}

async function runTrades(ex: Exchange, from: number, count: number): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const [m, t] = tradeCommands(from + i, TRADERS);
      return Promise.all([ex.submit(m), ex.submit(t)]).then((rs) => rs.map(expectAccepted));
    }),
  );
}

describe("Exchange (journal-backed single writer)", () => {
  const suite = suiteDatabase();
  const clock = manualClock();

  it("acknowledges after commit, journals accepted commands only, and publishes reports after commit", async () => {
    const { db } = suite;
    const ex = await Exchange.open({ db, clock, engineConfig: runEngineConfig });
    const seen: ExecutionReport[][] = [];
    ex.onReports((r) => seen.push(r));
    for (const c of setupCommands(TRADERS, clock.now())) expectAccepted(await ex.submit(c));
    const seqBefore = ex.nextSeq;
    assert.equal(
      refusedWith(
        await ex.submit({ type: "placeOrder", account: traderOf(0), marketId: 99n, outcome: 0, action: "buy", priceBps: 5000, size: 10_000n, tif: "GTC" }),
      ),
      "MARKET_NOT_FOUND",
    );
    assert.equal(ex.nextSeq, seqBefore, "a refused command takes no seq");
    clock.advance(1000);
    const [maker, taker] = tradeCommands(0, TRADERS);
    const pending = ex.submit(maker);
    const p2 = ex.submit(taker);
    const [a, b] = (await Promise.all([pending, p2])).map(expectAccepted);
    assert.equal(b.ops.length, 1);
    assert.equal(b.ops[0].type, "MATCH");
    const entries = await readFrom(db, seqBefore - 1);
    assert.equal(entries.length, 2);
    assert.equal(entries[1].opCount, 1);
    assert.equal(entries[1].at, clock.now());
    const fills = seen.flat().filter((r) => r.kind === "fill");
    assert.equal(fills.length, 2, "maker and taker fill reports");
    const stored = await ex.reportsOf(traderOf(1), 1, 100);
    assert.deepEqual(stored, [...b.reports.filter((r) => r.account === traderOf(1))]);
    assert.ok(a.reports.length >= 1);
    await ex.close();
    assert.equal(refusedWith(await ex.submit(maker)), "SERVICE_UNAVAILABLE");
  });

  it("a restart rebuilds the same engine (root, balances, report seqs) and continues the journal", async () => {
    const { db } = suite;
    // Snapshots off: the whole journal is replayed (the snapshot test below restores instead).
    const ex = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 0 });
    await runTrades(ex, 1, 40);
    const root = await ex.engine.ledger.root();
    const balances = ex.engine.ledger.entries();
    const next = ex.nextSeq;
    await ex.close();
    const again = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 0 });
    assert.deepEqual([again.opened.snapshotSeq, again.opened.replayedEntries], [null, next - 1]);
    assert.equal(again.nextSeq, next);
    assert.equal(await again.engine.ledger.root(), root);
    assert.deepEqual(again.engine.ledger.entries(), balances);
    const r = expectAccepted(await again.submit(tradeCommands(41, TRADERS)[0]));
    const lastStored = (await again.reportsOf(r.reports[0].account, 1, 1000)).at(-1)!;
    assert.equal(lastStored.seq, r.reports[0].seq, "report seqs continue gap-free after the rebuild");
    expectAccepted(await again.submit(tradeCommands(41, TRADERS)[1]));
    await again.close();
  });

  it("opens on a warm replay by replaying only the entries after it, to the same engine as a cold open", async () => {
    const { db } = suite;
    // A follower's replay: caught up while another exchange writes, then handed over with a tail still to read.
    const writer = await Exchange.open({ db, clock, engineConfig: runEngineConfig });
    await runTrades(writer, 200, 10);
    const warm = new JournalReplay(runEngineConfig);
    assert.ok((await warm.catchUp(db)) > 0);
    assert.equal(await warm.catchUp(db), 0, "nothing new: nothing replayed");
    const replayedTo = warm.lastSeq;
    await runTrades(writer, 210, 5);
    const next = writer.nextSeq;
    const root = await writer.engine.ledger.root();
    await writer.close();

    const opened = await Exchange.open({ db, clock, engineConfig: runEngineConfig, replay: warm });
    assert.deepEqual(
      { warm: opened.opened.warm, entries: opened.opened.entries, replayedEntries: opened.opened.replayedEntries },
      { warm: true, entries: next - 1, replayedEntries: next - 1 - replayedTo },
    );
    assert.equal(opened.engine, warm.engine, "the warm engine itself is the exchange's");
    assert.equal(await opened.engine.ledger.root(), root);
    expectAccepted(await opened.submit(tradeCommands(215, TRADERS)[0]));
    await opened.close();

    // Set aside, and the whole journal replayed: a replay ahead of the journal, one of another configuration, a failed one.
    const ahead = new JournalReplay(runEngineConfig);
    await ahead.catchUp(db);
    ahead.lastSeq += 1;
    const other = new JournalReplay({ ...runEngineConfig, treasury: traderOf(3) });
    const failed = new JournalReplay(runEngineConfig);
    failed.failed = new DeterminismError(1, "a test's");
    for (const replay of [ahead, other, failed]) {
      const cold = await Exchange.open({ db, clock, engineConfig: runEngineConfig, replay, snapshotEvery: 0 });
      assert.equal(cold.opened.warm, false);
      assert.equal(cold.opened.replayedEntries, cold.opened.entries);
      assert.notEqual(cold.engine, replay.engine);
      await cold.close();
    }
  });

  it("stores engine snapshots while running and at close; an open restores the newest and replays only what follows", async () => {
    const { db } = suite;
    const warnings: string[] = [];
    const log = { info() {}, error() {}, warn: (_o: object, msg?: string) => warnings.push(msg ?? "") };
    const ex = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 7, log });
    const first = ex.nextSeq;
    for (let i = 0; i < 10; i++) await runTrades(ex, 300 + i, 1);
    const root = await ex.engine.ledger.root();
    const next = ex.nextSeq;
    await ex.close();
    const seqs = (await db.query<{ seq: string }>(`SELECT seq::text FROM engine_snapshots ORDER BY seq`)).map((r) => Number(r.seq));
    // The newest two are kept: one taken while running (every 7 entries, one store at a time), and the close's.
    assert.equal(seqs.length, 2);
    assert.ok(seqs[0]! >= first + 6 && seqs[0]! < next - 1, `taken while running: after entry ${seqs[0]} (entries ${first}..${next - 1})`);
    assert.equal(seqs[1], next - 1);

    // The clean close stored the state after the last entry: nothing is replayed.
    const again = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 7, log });
    assert.deepEqual([again.opened.snapshotSeq, again.opened.replayedEntries, again.nextSeq], [next - 1, 0, next]);
    assert.equal(await again.engine.ledger.root(), root);
    await runTrades(again, 310, 2);
    const state = again.engine.snapshot();
    await again.close();
    // Restored or replayed whole, the same engine.
    const cold = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 0 });
    assert.equal(cold.opened.replayedEntries, next + 3);
    assert.deepEqual(cold.engine.snapshot(), state);
    await cold.close();

    // Set aside with a warning, and the whole journal replayed: one taken under another configuration, and one whose
    // entry's text changed since (here to an equal command, so the journal still replays).
    const other = await Exchange.open({ db, clock, engineConfig: { ...runEngineConfig, keepFinished: 3 }, snapshotEvery: 7, log });
    assert.deepEqual([other.opened.snapshotSeq, other.opened.replayedEntries], [null, next + 3]);
    await other.close();
    assert.match(warnings.join("\n"), /snapshot is set aside/);
    await db.query(`UPDATE journal_entries SET command = (command::text || ' ')::json WHERE seq = $1`, [next + 3]);
    const changed = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 7, log });
    assert.deepEqual([changed.opened.snapshotSeq, changed.opened.replayedEntries], [null, next + 3]);
    assert.deepEqual(changed.engine.snapshot(), state);
    await changed.close(); // stores the state after that entry again, for its new text
    assert.equal(warnings.length, 2);
    const restoredAgain = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 7, log });
    assert.deepEqual([restoredAgain.opened.snapshotSeq, restoredAgain.opened.replayedEntries], [next + 3, 0]);
    await restoredAgain.close();
    // A part missing: set aside too.
    await db.query(`DELETE FROM engine_snapshot_parts WHERE seq = $1 AND part = 1`, [next + 3]);
    const reopened = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 7, log });
    assert.deepEqual([reopened.opened.snapshotSeq, reopened.opened.replayedEntries], [null, next + 3]);
    assert.match(warnings.at(-1)!, /set aside/);
    assert.deepEqual(reopened.engine.snapshot(), state);
    await reopened.close();
  });

  it("refuses to open when a stored entry no longer replays to its ops (determinism guard)", async () => {
    const { db } = suite;
    const [e] = await db.query<{ seq: string }>(`SELECT seq::text FROM journal_entries WHERE op_count > 0 ORDER BY journal_entries.seq DESC LIMIT 1`);
    const [row] = await db.query<{ ops: string }>(`SELECT ops::text AS ops FROM journal_entries WHERE seq = $1`, [e.seq]);
    await db.query(`UPDATE journal_entries SET ops = $2::text::json WHERE seq = $1`, [
      e.seq,
      row.ops.replace(/"shares":"(\d+)"/, (_m, n) => `"shares":"${BigInt(n) + 1n}"`),
    ]);
    try {
      await assert.rejects(
        Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 0 }),
        (err: unknown) => err instanceof DeterminismError && err.seq === Number(e.seq),
      );
    } finally {
      await db.query(`UPDATE journal_entries SET ops = $2::text::json WHERE seq = $1`, [e.seq, row.ops]);
    }
  });

  it("after a failed journal write it refuses commands, rebuilds from the journal and resumes", async () => {
    const { db } = suite;
    const ex = await Exchange.open({ db, clock, engineConfig: runEngineConfig });
    const rootBefore = await ex.engine.ledger.root();
    const seqBefore = ex.nextSeq;
    // A stray report row collides with the next report of trader 0: that flush fails as a whole.
    const [maker, taker] = tradeCommands(100, TRADERS);
    const account = (maker as { account: string }).account;
    const lastSeq = (await ex.reportsOf(account as never, 1, 10_000)).at(-1)?.seq ?? 0;
    await db.query(`INSERT INTO execution_reports (account, seq, at, entry_seq, body) VALUES ($1, $2, 0, 1, '{}')`, [account, lastSeq + 1]);
    const results = await Promise.all([ex.submit(maker), ex.submit(taker)]);
    assert.deepEqual(results.map(refusedWith), ["SERVICE_UNAVAILABLE", "SERVICE_UNAVAILABLE"]);
    await db.query(`DELETE FROM execution_reports WHERE account = $1 AND seq = $2`, [account, lastSeq + 1]);
    await ex.recovered();
    assert.equal(ex.unavailable, null);
    assert.equal(ex.nextSeq, seqBefore, "nothing of the failed flush is in the journal");
    assert.equal(await ex.engine.ledger.root(), rootBefore, "memory is back to what the journal holds");
    const [m2, t2] = (await Promise.all([ex.submit(maker), ex.submit(taker)])).map(expectAccepted);
    assert.equal(t2.ops[0].type, "MATCH");
    assert.equal(m2.reports[0].seq, lastSeq + 1);
    await ex.close();
    const again = await Exchange.open({ db, clock, engineConfig: runEngineConfig });
    assert.equal(await again.engine.ledger.root(), await ex.engine.ledger.root());
    await again.close();
  });

  it("expires a resting GTD order at its expiry with one journaled expireOrders command, and replays it", async () => {
    const db2 = await openTestDatabase();
    try {
      const clock2 = manualClock();
      const ex = await Exchange.open({ db: db2, clock: clock2, engineConfig: runEngineConfig, expiryTimer: false });
      for (const c of setupCommands(TRADERS, clock2.now())) expectAccepted(await ex.submit(c));
      const expiresAt = clock2.now() + 60_000;
      const placed = expectAccepted(
        await ex.submit({
          type: "placeOrder",
          account: traderOf(0),
          marketId: 1n,
          outcome: 0,
          action: "buy",
          priceBps: 4000,
          size: 10_000n,
          tif: "GTD",
          expiresAt,
        }),
      );
      const orderId = placed.result.orderId;
      const seen: ExecutionReport[] = [];
      ex.onReports((r) => seen.push(...r));
      clock2.advance(59_999);
      assert.equal(await ex.expireDue(), false, "not due yet: nothing is journaled");
      const seqBefore = ex.nextSeq;
      clock2.advance(1);
      assert.equal(await ex.expireDue(), true);
      assert.equal(ex.nextSeq, seqBefore + 1);
      assert.equal(await ex.expireDue(), false, "nothing left to expire");
      assert.deepEqual(
        seen.map((r) => [r.kind, r.orderId, r.at]),
        [["expired", orderId, expiresAt]],
      );
      assert.equal(ex.engine.order(orderId)!.status, "expired");
      assert.equal(ex.engine.balance(traderOf(0), 0n).reserved, 0n, "the lock is released");
      const [entry] = await readFrom(db2, seqBefore - 1);
      assert.equal(entry.command, JSON.stringify({ type: "expireOrders" }));
      await ex.close();
      const again = await Exchange.open({ db: db2, clock: clock2, engineConfig: runEngineConfig, expiryTimer: false });
      assert.equal(again.engine.order(orderId)!.status, "expired");
      assert.equal(await again.engine.ledger.root(), await ex.engine.ledger.root());
      await again.close();
    } finally {
      await db2.close();
    }
  });

  it("the expiry timer expires a GTD order on the wall clock without any other command", { timeout: 20_000 }, async () => {
    const db2 = await openTestDatabase();
    try {
      const ex = await Exchange.open({ db: db2, clock: systemClock, engineConfig: runEngineConfig });
      for (const c of setupCommands(TRADERS, Date.now())) expectAccepted(await ex.submit(c));
      const expired = new Promise<ExecutionReport>((resolve) => ex.onReports((r) => r.forEach((x) => x.kind === "expired" && resolve(x))));
      const expiresAt = Date.now() + 300;
      const placed = expectAccepted(
        await ex.submit({
          type: "placeOrder",
          account: traderOf(1),
          marketId: 1n,
          outcome: 1,
          action: "buy",
          priceBps: 3000,
          size: 10_000n,
          tif: "GTD",
          expiresAt,
        }),
      );
      const report = await expired;
      assert.equal(report.orderId, placed.result.orderId);
      assert.ok(report.at >= expiresAt, "never before its expiry");
      await ex.close();
    } finally {
      await db2.close();
    }
  });
});
