import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { suiteDatabase } from "../../test/support/db";
import { manualClock } from "../clock";
import type { Database } from "../db/client";
import { type Command, opsToJson } from "../engine";
import { latestSnapshot, readFrom } from "../journal";
import { Exchange, JournalReplay } from "./exchange";
import { SnapshotReplica } from "./snapshot-replica";
import { expectAccepted, runEngineConfig, setupCommands, tradeCommands } from "./trading-run";

const TRADERS = 4;

/** What the log said of each snapshot stored. */
interface Stored {
  seq: number;
  by: string;
  takeMs: number;
}

/** Resolves once `done()` holds; fails after 20 s. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 5) {
    if (waited > 20_000) throw new Error("timed out");
    await sleep(5);
  }
}

/** The state after entry `seq`, replayed from the journal's start: what a snapshot after it must hold. */
async function replayedTo(db: Database, seq: number): Promise<string[]> {
  const replay = new JournalReplay(runEngineConfig);
  for (const e of await readFrom(db, 0, seq)) replay.applyEntry(e.seq, e.at, e.command, e.ops);
  assert.equal(replay.lastSeq, seq);
  return replay.engine.snapshot();
}

describe("SnapshotReplica (engine snapshots taken off the exchange's thread)", () => {
  const suite = suiteDatabase();
  const clock = manualClock();

  /** An exchange whose log keeps the snapshots stored, the replicas started and the warnings. */
  function logged() {
    const stored: Stored[] = [];
    const started: { snapshotSeq: number | null; replayedEntries: number }[] = [];
    const warnings: string[] = [];
    const log = {
      info: (o: object, msg?: string) => {
        if (msg === "engine snapshot stored") stored.push(o as Stored);
        if (msg === "snapshot replica started") started.push(o as (typeof started)[0]);
      },
      warn: (_o: object, msg?: string) => warnings.push(msg ?? ""),
      error() {},
    };
    return { stored, started, warnings, log };
  }

  /**
   * Submits one command at a time, each after the snapshots due so far (one every sixth entry after `from`) were
   * stored, so none is deferred by a store in flight.
   */
  const stepper = (ex: Exchange, stored: Stored[], from: number) => async (c: Command) => {
    expectAccepted(await ex.submit(c));
    await until(() => stored.length === Math.floor((ex.nextSeq - 1 - from) / 6));
  };

  it("takes every snapshot while running, each the state a replay of the journal gives; the close's is taken here", async () => {
    const { db } = suite;
    const { stored, started, warnings, log } = logged();
    const ex = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 6, log });
    const submit = stepper(ex, stored, 0);
    for (const c of setupCommands(TRADERS, clock.now())) await submit(c);
    for (let k = 0; k < 12; k++) for (const c of tradeCommands(k, TRADERS)) await submit(c);
    const last = ex.nextSeq - 1;
    await ex.close();
    assert.deepEqual(warnings, []);
    // No snapshot was stored yet: the replica started half-way to the first one due (entry 6), replaying the journal
    // from its start to entry 3.
    assert.deepEqual(
      started.map((s) => [s.snapshotSeq, s.replayedEntries]),
      [[null, 3]],
    );
    const running = stored.slice(0, -1);
    assert.equal(running.length, Math.floor(last / 6));
    assert.deepEqual(new Set(running.map((s) => s.by)), new Set(["replica"]));
    assert.deepEqual([stored.at(-1)!.seq, stored.at(-1)!.by], [last, "exchange"], "the close stores the state after the last entry here");
    // The newest running snapshot: the state a replay from the journal's start gives after its entry.
    const newest = running.at(-1)!;
    const snap = await latestSnapshot(db, newest.seq);
    assert.equal(snap?.seq, newest.seq);
    assert.equal(snap.matchesJournal, true);
    assert.deepEqual(snap.parts, await replayedTo(db, newest.seq));
    // A start restores it and replays what followed to the same engine as a replay of the whole journal.
    await db.query(`DELETE FROM engine_snapshots WHERE seq > $1`, [newest.seq]);
    const whole = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 0 });
    assert.deepEqual([whole.opened.snapshotSeq, whole.opened.replayedEntries], [null, last]);
    const restored = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 6, snapshotReplica: false });
    assert.deepEqual([restored.opened.snapshotSeq, restored.opened.replayedEntries], [newest.seq, last - newest.seq]);
    assert.deepEqual(restored.engine.snapshot(), whole.engine.snapshot());
    await whole.close();
    await restored.close(); // stores the state after `last` again
  });

  it("starts from the newest stored snapshot and the entries after it", async () => {
    const { db } = suite;
    const { stored, started, warnings, log } = logged();
    const ex = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 6, log });
    const from = ex.nextSeq - 1;
    const submit = stepper(ex, stored, from);
    for (let k = 50; k < 56; k++) for (const c of tradeCommands(k, TRADERS)) await submit(c);
    await ex.close();
    assert.deepEqual(warnings, []);
    // Half-way to the first snapshot due: the one stored at the last close, and the 3 entries after it.
    assert.deepEqual(
      started.map((s) => [s.snapshotSeq, s.replayedEntries]),
      [[from, 3]],
    );
    const newest = stored.at(-2)!;
    assert.equal(newest.by, "replica");
    assert.deepEqual((await latestSnapshot(db, newest.seq))?.parts, await replayedTo(db, newest.seq));
  });

  it("with the replica turned off, the exchange takes every snapshot itself", async () => {
    const { db } = suite;
    const stored: Stored[] = [];
    const log = { info: (o: object, msg?: string) => msg === "engine snapshot stored" && stored.push(o as Stored), warn() {}, error() {} };
    const ex = await Exchange.open({ db, clock, engineConfig: runEngineConfig, snapshotEvery: 6, snapshotReplica: false, log });
    for (let k = 100; k < 112; k++) for (const c of tradeCommands(k, TRADERS)) expectAccepted(await ex.submit(c));
    await ex.close();
    assert.ok(stored.length >= 3);
    assert.deepEqual(new Set(stored.map((s) => s.by)), new Set(["exchange"]));
  });

  it("catches up page by page, and stops when it falls too far behind", async () => {
    const { db } = suite;
    const last = (await readFrom(db, 0, 100_000)).length;
    const seq = last - 3;
    const failures: Error[] = [];
    const started: object[] = [];
    // No snapshot: pages of 4 entries from the journal's start, one page waiting while the thread applies the one before.
    await db.query(`DELETE FROM engine_snapshots`);
    const log = { info: (o: object) => started.push(o) };
    const replica = new SnapshotReplica({ db, config: runEngineConfig, seq, committed: Promise.resolve(), log, pageSize: 4, maxLag: 2 }, (err) =>
      failures.push(err),
    );
    try {
      assert.deepEqual(await replica.snapshot(seq), await replayedTo(db, seq));
      assert.deepEqual(
        started.map((o) => [(o as { snapshotSeq: unknown }).snapshotSeq, (o as { replayedEntries: unknown }).replayedEntries]),
        [[null, seq]],
      );
      const [next, after, third] = await readFrom(db, seq, 3);
      replica.follow(next);
      replica.follow(after); // 2 entries ahead of the last applied: still within the bound
      assert.equal(replica.failed, null);
      replica.follow(third);
      assert.match(String(replica.failed), /fell 3 entries behind/);
      assert.equal(failures.length, 1);
    } finally {
      await replica.close();
    }
  });

  it("stops for good at the first entry that does not replay, and refuses the snapshot asked after it", async () => {
    const { db } = suite;
    // Seeded after the entry before the journal's first credit, so the entry it follows has ops to compare.
    const credit = (await readFrom(db, 0, 10)).find((e) => e.opCount > 0)!;
    const seq = credit.seq - 1;
    const [next] = await readFrom(db, credit.seq, 1);
    // No snapshot stored at or before `seq` (the test above keeps only later ones): it replays from the start.
    const start = { db, config: runEngineConfig, seq, committed: Promise.resolve() };
    const failures: Error[] = [];
    const replica = new SnapshotReplica(start, (err) => failures.push(err));
    try {
      // An entry followed in order replays; the snapshot after it is what a replay from the start gives.
      replica.follow(credit);
      assert.deepEqual(await replica.snapshot(credit.seq), await replayedTo(db, credit.seq));
      // A snapshot after another entry than the last followed is refused, and stops it.
      await assert.rejects(replica.snapshot(seq), new RegExp(`applied up to ${credit.seq}`));
      assert.equal(failures.length, 1);
      assert.match(String(replica.failed), /asked for, but the replica applied up to/);
      replica.follow(next); // ignored from now on
      await assert.rejects(replica.snapshot(next.seq), new RegExp(`applied up to ${credit.seq}`));
      assert.equal(failures.length, 1, "told once");
    } finally {
      await replica.close();
    }

    // An entry whose stored ops differ from what its command gives: the replica's determinism check stops it.
    const other = new SnapshotReplica(start, (err) => failures.push(err));
    try {
      other.follow({ ...credit, ops: opsToJson([]) });
      await assert.rejects(other.snapshot(credit.seq), new RegExp(`journal entry ${credit.seq} does not replay`));
      assert.equal(failures.length, 2);
    } finally {
      await other.close();
    }
  });
  // Last: it journals under another engine configuration.
  it("after a replica fails, the exchange takes the next snapshot and a new replica the ones after", async () => {
    const { db } = suite;
    await (await Exchange.open({ db, clock, engineConfig: runEngineConfig })).close(); // stores the state at the close
    // Under another configuration that snapshot cannot be restored: the open sets it aside and replays the journal,
    // and the first replica, starting from it, fails.
    const { stored, started, warnings, log } = logged();
    const ex = await Exchange.open({ db, clock, engineConfig: { ...runEngineConfig, keepFinished: 3 }, snapshotEvery: 6, log });
    const from = ex.nextSeq - 1;
    // After a whole replay a snapshot is due at the first entry: the replica starts there, fails, and that snapshot
    // is not stored. Six entries later the exchange takes one; half-way to the next a new replica starts from it and
    // takes the one after.
    const settled: Record<number, () => boolean> = { 0: () => warnings.length === 3, 6: () => stored.length === 1, 12: () => stored.length === 2 };
    const commands = Array.from({ length: 7 }, (_, i) => tradeCommands(70 + i, TRADERS)).flat();
    for (const [i, c] of commands.entries()) {
      expectAccepted(await ex.submit(c));
      if (settled[i]) await until(settled[i]);
    }
    await ex.close();
    assert.deepEqual(
      warnings.map((w) => w.split(":")[0]),
      ["the engine snapshot is set aside", "the snapshot replica stopped", "engine snapshot not stored"],
    );
    assert.deepEqual(
      stored.map((s) => [s.seq - from, s.by]),
      [
        [7, "exchange"],
        [13, "replica"],
        [14, "exchange"],
      ],
    );
    // (The failed one may have logged its start too, from the set-aside snapshot, before its thread failed.)
    const last = started.at(-1)!;
    assert.deepEqual([last.snapshotSeq, last.replayedEntries], [from + 7, 3]);
  });
});
