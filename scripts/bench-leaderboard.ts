/**
 * `npm run bench:leaderboard`: what the leaderboard costs (docs/leaderboard.md). Prints one JSON object per line:
 *   {"bench":"leaderboard-pass","ops":…,"accounts":…,"markets":…,"opsPerSec":…,"snapshotMs":…,"boardMs":…}
 *        the pure journal pass over synthetic fills (MATCH ops between random accounts in random markets), one
 *        snapshot of its state, and one trader board (figures of every account, ranked by P&L) from it
 *   {"bench":"leaderboard-checkpoint","records":…,"bytes":…,"encodeMs":…,"encodeMaxTurnMs":…,"decodeMs":…,"decodeMaxTurnMs":…}
 *        the pass's checkpoint (its state and one snapshot) as text, and back, and the longest the event loop waited for
 *        a turn meanwhile (both yield between lines of the text; a garbage collection can still take a turn long)
 *   {"bench":"leaderboard-build","db":"pglite","entries":…,"firstBuildMs":…,"entriesPerSec":…,"incrementalBuildMs":…,"restoredBuildMs":…}
 *        a generation built from a real journal on PGlite (an Exchange running crossing order pairs): the first build
 *        reads it all; the next, after BENCH_MORE_COMMANDS more commands, reads only those; then a restarted service's
 *        first build: the stored checkpoint read, restored, and the journal after it (none) read
 * Env: BENCH_OPS (200,000), BENCH_ACCOUNTS (5,000), BENCH_MARKETS (500), BENCH_COMMANDS (20,000), BENCH_MORE_COMMANDS (1,000).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { Address } from "viem";
import type { JournalOp } from "../decoder";
import { manualClock } from "../relayer/clock";
import { openDatabase } from "../relayer/db/client";
import { migrateService } from "../api/platform/db/migrations";
import { Exchange } from "../relayer/exchange";
import { expectAccepted, runEngineConfig, setupCommands, tradeCommands } from "../relayer/exchange/trading-run";
import { seededRandom } from "../relayer/seeded-random";
import { applyEntry, emptyState, snapshotOf, type Marks } from "../api/domain/ranking/trading-pass";
import { rankTraders, traderFigures } from "../api/domain/ranking/boards";
import { GenerationBuilder, type MarketFacts } from "../api/domain/ranking/generation";
import { decodeCheckpoint, encodeCheckpoint, saveCheckpoint, usableCheckpoint } from "../api/domain/ranking/pass-checkpoint";
import { scriptEnv } from "./env";

const ENV = scriptEnv({
  BENCH_OPS: z.coerce.number().int().positive().default(200_000),
  BENCH_ACCOUNTS: z.coerce.number().int().min(2).default(5_000),
  BENCH_MARKETS: z.coerce.number().int().positive().default(500),
  BENCH_COMMANDS: z.coerce.number().int().positive().default(20_000),
  BENCH_MORE_COMMANDS: z.coerce.number().int().positive().default(1_000),
});
const TRADERS = 64;
const SEASON = { start: Date.parse("2026-09-01T00:00:00Z"), end: Date.parse("2027-01-01T00:00:00Z") };

async function benchPass(): Promise<void> {
  const random = seededRandom(42);
  const pick = (n: number) => Math.floor(random() * n);
  const account = (i: number) => `0x${(0xb000 + i).toString(16).padStart(40, "0")}` as Address;
  const ops: JournalOp[] = [];
  for (let i = 0; i < ENV.BENCH_OPS; i++) {
    const maker = pick(ENV.BENCH_ACCOUNTS);
    const taker = (maker + 1 + pick(ENV.BENCH_ACCOUNTS - 1)) % ENV.BENCH_ACCOUNTS;
    ops.push({
      type: "MATCH",
      maker: account(maker),
      taker: account(taker),
      marketId: BigInt(1 + pick(ENV.BENCH_MARKETS)),
      side: 0,
      kind: pick(2) === 0 ? 2 : 0,
      shares: BigInt(1 + pick(1_000)) * 1_000_000n,
      priceBps: 100 + pick(9_800),
      fee: 1_000n,
    });
  }
  const state = emptyState();
  let t0 = performance.now();
  for (const [i, op] of ops.entries()) applyEntry(state, i, [op]);
  const passMs = performance.now() - t0;
  t0 = performance.now();
  snapshotOf(state);
  const snapshotMs = performance.now() - t0;
  const facts: MarketFacts = { address: "", category: "OTHER", collateral: { symbol: "PM", decimals: 6 }, creator: "", createdAt: 0 };
  const kept = new Map(Array.from({ length: ENV.BENCH_MARKETS }, (_, i) => [String(i + 1), facts]));
  const marks: Marks = () => [500_000, 500_000];
  t0 = performance.now();
  const ranked = rankTraders(traderFigures({ bounds: { kind: "all", start: null, end: 0 }, start: null, end: { state, marks } }, kept), "PNL");
  const boardMs = performance.now() - t0;
  console.log(
    JSON.stringify({
      bench: "leaderboard-pass",
      ops: ops.length,
      accounts: ENV.BENCH_ACCOUNTS,
      markets: ENV.BENCH_MARKETS,
      opsPerSec: Math.round(ops.length / (passMs / 1000)),
      snapshotMs: Math.round(snapshotMs),
      boardMs: Math.round(boardMs),
      ranked: ranked.length,
    }),
  );
  const snapshot = snapshotOf(state);
  // The longest the event loop waited for a turn while the checkpoint was written, then while it was read.
  const turns = monitorEventLoopDelay({ resolution: 5 });
  turns.enable();
  t0 = performance.now();
  const text = await encodeCheckpoint({ state: snapshotOf(state), snaps: new Map([[0, snapshot]]) });
  const encodeMs = performance.now() - t0;
  turns.disable();
  const encodeMaxTurnMs = turns.max / 1e6;
  turns.reset();
  turns.enable();
  t0 = performance.now();
  const restored = await decodeCheckpoint(text);
  const decodeMs = performance.now() - t0;
  turns.disable();
  const decodeMaxTurnMs = turns.max / 1e6;
  let records = restored.state.markets.size;
  for (const m of restored.state.trading.values()) records += m.size;
  console.log(
    JSON.stringify({
      bench: "leaderboard-checkpoint",
      records,
      bytes: text.length,
      encodeMs: Math.round(encodeMs),
      encodeMaxTurnMs: Math.round(encodeMaxTurnMs),
      decodeMs: Math.round(decodeMs),
      decodeMaxTurnMs: Math.round(decodeMaxTurnMs),
    }),
  );
}

async function benchBuild(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pm-bench-leaderboard-"));
  const db = await openDatabase({ dataDir: dir });
  const clock = manualClock(Date.parse("2026-11-25T12:00:00Z"));
  try {
    await migrateService(db);
    const ex = await Exchange.open({ db, clock, engineConfig: runEngineConfig });
    for (const c of setupCommands(TRADERS, clock.now())) expectAccepted(await ex.submit(c));
    let k = 0;
    const trade = async (commands: number) => {
      for (const end = k + Math.floor(commands / 2); k < end; k++) {
        clock.advance(10);
        const [m, t] = tradeCommands(k, TRADERS);
        await Promise.all([ex.submit(m).then(expectAccepted), ex.submit(t).then(expectAccepted)]);
      }
    };
    await trade(ENV.BENCH_COMMANDS);
    const builder = new GenerationBuilder(db, 8453, SEASON);
    clock.advance(1);
    let t0 = performance.now();
    const first = await builder.build(clock.now());
    const firstBuildMs = performance.now() - t0;
    await trade(ENV.BENCH_MORE_COMMANDS);
    clock.advance(1);
    t0 = performance.now();
    const next = await builder.build(clock.now());
    const incrementalBuildMs = performance.now() - t0;
    if (next.lastSeq <= first.lastSeq) throw new Error("the incremental build read nothing new");
    const c = builder.checkpoint();
    if (!c) throw new Error("no checkpoint after two builds");
    await saveCheckpoint(db, { ...c, body: await encodeCheckpoint(c), season: SEASON, createdAt: clock.now() });
    t0 = performance.now();
    const { checkpoint } = await usableCheckpoint(db, { maxSeq: Number.MAX_SAFE_INTEGER, now: clock.now(), season: SEASON });
    if (!checkpoint) throw new Error("the stored checkpoint is not usable");
    const restarted = new GenerationBuilder(db, 8453, SEASON);
    restarted.restore(checkpoint);
    const again = await restarted.build(clock.now());
    const restoredBuildMs = performance.now() - t0;
    if (again.lastSeq !== next.lastSeq) throw new Error("the restored build did not reach the journal's end");
    console.log(
      JSON.stringify({
        bench: "leaderboard-build",
        db: "pglite",
        entries: first.lastSeq,
        firstBuildMs: Math.round(firstBuildMs),
        entriesPerSec: Math.round(first.lastSeq / (firstBuildMs / 1000)),
        moreEntries: next.lastSeq - first.lastSeq,
        incrementalBuildMs: Math.round(incrementalBuildMs),
        restoredBuildMs: Math.round(restoredBuildMs),
      }),
    );
    await ex.close();
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  await benchPass();
  await benchBuild();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
