/**
 * `npm run bench:journal`: durable commands per second through the Exchange (real engine commands: crossing
 * order pairs of relayer/exchange/trading-run.ts, each acknowledged only after its group-commit transaction).
 * Prints two JSON objects per database:
 *   {"bench":"journal","db":"postgres","commandsPerSec":…,"p99Ms":…,...}
 *   {"bench":"journal-replay","db":"postgres","entries":…,"entriesPerSec":…,"seconds":…}
 *        a restart of the same journal: `Exchange.open` replaying every entry (determinism-checked) into a fresh engine
 *   {"bench":"journal-snapshot","db":"postgres","entries":…,"bytes":…,"takeMs":…,"openMs":…,"replayedEntries":0}
 *        the same restart from an engine snapshot stored at the clean stop (docs/journal.md "Snapshots"): `takeMs` is how
 *        long taking it held the event loop, `openMs` the open that restored it
 *   {"bench":"journal-running-snapshots","db":"postgres","by":"none"|"exchange"|"replica","snapshots":…,
 *    "commandsPerSec":…,"p99Ms":…,"maxMs":…,"maxLoopDelayMs":…}
 *        BENCH_RUNNING_COMMANDS more commands (default 60,000; PGlite half) on that state: without snapshots, then with
 *        one every BENCH_SNAPSHOT_EVERY entries (4,000) taken on the exchange's thread, then by the replica
 *        (relayer/exchange/snapshot-replica.ts): `maxLoopDelayMs` is the longest the event loop was held
 *   {"bench":"journal","db":"pglite",...} and its other lines
 * Postgres: DATABASE_URL, else postgres://root@127.0.0.1:5432/test, in its own schema dropped afterwards.
 * PGlite: a temporary data directory (on disk, as in production), removed afterwards.
 * Bounded: BENCH_COMMANDS commands (default 40,000; PGlite half) from BENCH_SUBMITTERS concurrent submitters (256).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { systemClock } from "../relayer/clock";
import { openDatabase, type Database } from "../relayer/db/client";
import { migrateService } from "../api/platform/db/migrations";
import { Exchange, type Submitted } from "../relayer/exchange";
import { expectAccepted, runEngineConfig, setupCommands, tradeCommands } from "../relayer/exchange/trading-run";
import { z } from "zod";
import { scriptEnv } from "./env";

const TRADERS = 64;
const ENV = scriptEnv({
  BENCH_SUBMITTERS: z.coerce.number().int().positive().default(256),
  BENCH_COMMANDS: z.coerce.number().int().positive().default(40_000),
  BENCH_RUNNING_COMMANDS: z.coerce.number().int().positive().default(60_000),
  BENCH_SNAPSHOT_EVERY: z.coerce.number().int().positive().default(4_000),
  DATABASE_URL: z.string().default("postgres://root@127.0.0.1:5432/test"),
});
const SUBMITTERS = ENV.BENCH_SUBMITTERS;
const COMMANDS = ENV.BENCH_COMMANDS;

/** Trades `from`..`from + pairs - 1` (two commands each) from SUBMITTERS concurrent submitters; each command's latency. */
async function trade(ex: Exchange, from: number, pairs: number): Promise<{ seconds: number; p: (q: number) => number; done: number }> {
  const latencies = new Float64Array(pairs * 2);
  let next = 0;
  let done = 0;
  const submitter = async () => {
    while (next < pairs) {
      const k = from + next++;
      const [m, t] = tradeCommands(k, TRADERS);
      const t0 = performance.now();
      const acked = (r: Submitted) => {
        expectAccepted(r);
        latencies[done++] = performance.now() - t0;
      };
      await Promise.all([ex.submit(m).then(acked), ex.submit(t).then(acked)]);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: SUBMITTERS }, submitter));
  const seconds = (performance.now() - t0) / 1000;
  const sorted = Array.from(latencies.subarray(0, done)).sort((x, y) => x - y);
  const p = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 100) / 100;
  return { seconds, p, done };
}

async function bench(name: "postgres" | "pglite", db: Database, commands: number, running: number): Promise<void> {
  await migrateService(db);
  // Snapshots off for the run and the replay: the figures compare with those before snapshots existed.
  const ex = await Exchange.open({ db, clock: systemClock, engineConfig: runEngineConfig, snapshotEvery: 0 });
  for (const c of setupCommands(TRADERS, systemClock.now())) expectAccepted(await ex.submit(c));
  const pairs = Math.floor(commands / 2);
  const { seconds, p, done } = await trade(ex, 0, pairs);
  const [{ n }] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM journal_entries`);
  console.log(
    JSON.stringify({
      bench: "journal",
      db: name,
      commandsPerSec: Math.round(done / seconds),
      p99Ms: p(0.99),
      p50Ms: p(0.5),
      commands: done,
      submitters: SUBMITTERS,
      journalEntries: Number(n),
      workload: "engine placeOrder pairs (resting YES buy + crossing NO buy, one fill each)",
    }),
  );
  await ex.close();

  // A restart: the whole journal replayed into a fresh engine, every entry's ops checked (what a restart and a
  // leader's take-over wait for before the first order, docs/scale-out.md).
  const r0 = performance.now();
  const quiet = { expiryTimer: false, lifecycleTimer: false } as const;
  const reopened = await Exchange.open({ db, clock: systemClock, engineConfig: runEngineConfig, snapshotEvery: 0, ...quiet });
  const replaySeconds = (performance.now() - r0) / 1000;
  const t1 = performance.now();
  const bytes = reopened.engine.snapshot().reduce((n, part) => n + part.length, 0);
  const takeMs = performance.now() - t1;
  await reopened.close();
  console.log(
    JSON.stringify({
      bench: "journal-replay",
      db: name,
      entries: Number(n),
      entriesPerSec: Math.round(Number(n) / replaySeconds),
      seconds: Math.round(replaySeconds * 100) / 100,
    }),
  );

  // The same restart from the snapshot a clean stop stores.
  await (await Exchange.open({ db, clock: systemClock, engineConfig: runEngineConfig, ...quiet })).close();
  const o0 = performance.now();
  const restored = await Exchange.open({ db, clock: systemClock, engineConfig: runEngineConfig, ...quiet });
  const openMs = performance.now() - o0;
  await restored.close();
  if (restored.opened.snapshotSeq !== Number(n)) throw new Error(`the open restored ${restored.opened.snapshotSeq}, not the snapshot after entry ${n}`);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  console.log(
    JSON.stringify({
      bench: "journal-snapshot",
      db: name,
      entries: Number(n),
      bytes,
      takeMs: round(takeMs),
      openMs: round(openMs),
      replayedEntries: restored.opened.replayedEntries,
    }),
  );

  // Trading on, on the same state: without snapshots, with snapshots taken on this thread, then by the replica.
  let from = pairs;
  for (const by of ["none", "exchange", "replica"] as const) {
    const stored: { seq: number; by: string }[] = [];
    const log = { info: (o: object, msg?: string) => msg === "engine snapshot stored" && stored.push(o as (typeof stored)[0]), warn() {}, error() {} };
    const ex = await Exchange.open({
      db,
      clock: systemClock,
      engineConfig: runEngineConfig,
      snapshotEvery: by === "none" ? 0 : ENV.BENCH_SNAPSHOT_EVERY,
      snapshotReplica: by === "replica",
      log,
      ...quiet,
    });
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const run = await trade(ex, from, Math.floor(running / 2));
    loop.disable();
    from += Math.floor(running / 2);
    const lastSeq = ex.nextSeq - 1;
    await ex.close(); // waits for a store in flight, and stores the state after the last entry on this thread
    const whileRunning = stored.filter((s) => s.seq !== lastSeq);
    console.log(
      JSON.stringify({
        bench: "journal-running-snapshots",
        db: name,
        by,
        snapshots: whileRunning.length,
        byReplica: whileRunning.filter((s) => s.by === "replica").length,
        commandsPerSec: Math.round(run.done / run.seconds),
        p99Ms: run.p(0.99),
        maxMs: run.p(1),
        maxLoopDelayMs: round(loop.max / 1e6),
        snapshotEvery: ENV.BENCH_SNAPSHOT_EVERY,
      }),
    );
  }
}

async function main() {
  const url = ENV.DATABASE_URL;
  const schema = `bench_journal_${randomBytes(4).toString("hex")}`;
  const pg = await openDatabase({ databaseUrl: url, schema });
  try {
    await bench("postgres", pg, COMMANDS, ENV.BENCH_RUNNING_COMMANDS);
  } finally {
    await pg.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pg.close();
  }
  const dir = mkdtempSync(join(tmpdir(), "pm-bench-journal-"));
  const lite = await openDatabase({ dataDir: dir });
  try {
    await bench("pglite", lite, Math.floor(COMMANDS / 2), Math.floor(ENV.BENCH_RUNNING_COMMANDS / 2));
  } finally {
    await lite.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
