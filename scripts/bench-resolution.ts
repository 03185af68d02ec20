/**
 * npm run bench:resolution — the payout path of a committed market's final resolution, end to end, on a real Hardhat
 * node (chain id 8453) with a fresh CommittedLedger. Prints one JSON line:
 *   {"bench":"resolution","holders":100000,"payoutsPerSec":…,"confirmedMs":…,"decodeOk":true}
 *
 * Set-up (not timed): one binary LMSR market with a creator; BENCH_RESOLUTION_HOLDERS accounts (default 100,000) are
 * each granted PM and buy one side (alternating YES/NO, a seeded budget each) through journaled Exchange commands
 * (group commit, in chunks), and the batcher publishes all of it; the creator proposes YES and the challenge window
 * elapses on the manual clock. Then, timed from the submit of the clock's advanceLifecycle (the proposal becomes
 * final: docs/resolution-bench.md):
 * - payoutsPerSec = holders / (submit → the journal transaction holding every RESOLUTION_PAYOUT committed): the
 *   committed lane's "paid" instant (engine finality over every holder, the ops' JSON, the group commit);
 * - confirmedMs = submit → the batcher's last batch holding a payout op confirmed on the chain (PMJ5 payloads split
 *   by the batcher's byte budget, each commitJournalBatch under the transaction gas cap);
 * - decodeOk = the decoder's replay of the chain (decoder/replay, what `decode` runs) gives rootOk and commitmentOk
 *   for every one of those batches, and their ops hold one RESOLUTION_PAYOUT per holder.
 * Details (phase timings, batches, gas) go to stderr. Env: BENCH_RESOLUTION_HOLDERS, DATABASE_URL (Postgres in a
 * fresh schema; PGlite in a temp directory otherwise).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { createPublicClient, http, type Address, type Hex } from "viem";
import { z } from "zod";
import { replayLedger } from "../decoder/replay/replay";
import { migrateService } from "../api/platform/db/migrations";
import { Batcher } from "../relayer/batcher";
import type { BatchRecord } from "../relayer/journal/store";
import { manualClock } from "../relayer/clock";
import { openDatabase, type Database } from "../relayer/db/client";
import type { Command } from "../relayer/engine";
import { Exchange } from "../relayer/exchange/exchange";
import { expectAccepted } from "../relayer/exchange/trading-run";
import { challengeBy } from "../relayer/lifecycle";
import { deployLedger, OPERATOR_KEY, startLocalChain, TREASURY } from "./stack/chain";
import { stopChild } from "./stack/children";
import { freePort } from "../test/support/ports";
import { seededRandom } from "../relayer/seeded-random";
import { scriptEnv } from "./env";

const ENV = scriptEnv({
  BENCH_RESOLUTION_HOLDERS: z.coerce.number().int().positive().default(100_000),
  DATABASE_URL: z.string().optional(),
});
const HOLDERS = ENV.BENCH_RESOLUTION_HOLDERS;
const PM = 1_000_000n;
const SHARE = 1_000_000n;
const MARKET = 1n;
const HOUR = 3_600_000;
const CHUNK = 4_000; // commands per group-commit wave while populating
const CREATOR = `0x${"c0".repeat(20)}` as Address;

const note = (obj: object) => console.error(JSON.stringify(obj));

/** Distinct holder addresses in no particular order (as real wallets are). */
function holders(n: number): Address[] {
  const rnd = seededRandom(20_261_127);
  const seen = new Set<string>();
  const out: Address[] = [];
  while (out.length < n) {
    let hex = "0x";
    for (let i = 0; i < 5; i++)
      hex += Math.floor(rnd() * 2 ** 32)
        .toString(16)
        .padStart(8, "0");
    if (seen.has(hex) || hex === CREATOR) continue;
    seen.add(hex);
    out.push(hex as Address);
  }
  return out;
}

async function submitAll(ex: Exchange, commands: Command[]): Promise<void> {
  for (let i = 0; i < commands.length; i += CHUNK) {
    const wave = commands.slice(i, i + CHUNK).map((c) => ex.submit(c));
    for (const r of await Promise.all(wave)) expectAccepted(r);
  }
}

/** The batcher's confirmations as they come, and a wait for the first confirmed row that satisfies `pred`. */
function confirmations() {
  const waiters: { pred: (b: BatchRecord) => boolean; resolve: (b: BatchRecord) => void }[] = [];
  return {
    onConfirmed(b: BatchRecord): void {
      const at = performance.now();
      for (const w of waiters.splice(0)) {
        if (w.pred(b)) w.resolve({ ...b, updatedAt: at });
        else waiters.push(w);
      }
    },
    /** Resolves with the row, its `updatedAt` replaced by the performance.now() of its confirmation. */
    until(pred: (b: BatchRecord) => boolean): Promise<BatchRecord> {
      return new Promise((resolve) => waiters.push({ pred, resolve }));
    },
  };
}

async function openBenchDatabase(): Promise<{ db: Database; cleanup: () => Promise<void> }> {
  if (ENV.DATABASE_URL) {
    const schema = `bench_resolution_${randomBytes(4).toString("hex")}`;
    const db = await openDatabase({ databaseUrl: ENV.DATABASE_URL, schema });
    await migrateService(db);
    return {
      db,
      cleanup: async () => {
        await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await db.close();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "pm-bench-resolution-"));
  const db = await openDatabase({ dataDir: join(dir, "pglite") });
  await migrateService(db);
  return {
    db,
    cleanup: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const t = { start: performance.now() };
  const port = await freePort();
  const chain = await startLocalChain({ port, chainId: 8453 });
  const rpcUrl = `http://127.0.0.1:${port}`;
  const { db, cleanup } = await openBenchDatabase();
  let ex: Exchange | undefined;
  let batcher: Batcher | undefined;
  try {
    const ledger = await deployLedger(rpcUrl);
    const confirmed = confirmations();
    batcher = await Batcher.open({
      db,
      rpcUrl,
      ledger,
      operatorKey: OPERATOR_KEY,
      treasury: TREASURY,
      intervalMs: 50,
      maxOps: 5_000,
      onConfirmed: confirmed.onConfirmed,
    });
    const b = batcher;
    batcher.start();
    const clock = manualClock();
    const committedOps = { last: 0 };
    ex = await Exchange.open({
      db,
      clock,
      engineConfig: { treasury: TREASURY, allowance: { enabled: false, freePerPeriod: 0, periodMs: 86_400_000 } },
      expiryTimer: false,
      lifecycleTimer: false,
      onCommitted: (n) => {
        committedOps.last = n;
        b.noteAppended(n);
      },
    });
    const t0 = clock.now();
    const closeTime = t0 + HOUR;
    expectAccepted(await ex.submit({ type: "credit", account: CREATOR, amount: 1_000_000n * PM, reason: "GRANT" }));
    expectAccepted(
      await ex.submit({
        type: "createMarket",
        marketId: MARKET,
        pricing: "LMSR",
        outcomes: 2,
        feeModel: "notional-v1",
        takerFeeBps: 0,
        sellExitFeeBps: 0,
        winningsExitFeeBps: 100,
        seed: 100_000n * PM,
        creator: CREATOR,
        closeTime,
      }),
    );
    const who = holders(HOLDERS);
    const rnd = seededRandom(7);
    const setup: Command[] = [];
    for (const [i, account] of who.entries()) {
      // 1..5 shares cost at most 5 PM: each holder keeps collateral beside its shares.
      const shares = SHARE + BigInt(Math.floor(rnd() * 4 * Number(SHARE)));
      setup.push({ type: "credit", account, amount: 10n * PM, reason: "GRANT" });
      setup.push({ type: "lmsrTrade", account, marketId: MARKET, outcome: i % 2 === 0 ? 0 : 1, direction: "BUY", shares });
    }
    await submitAll(ex, setup);
    const populated = performance.now();
    clock.set(closeTime + HOUR);
    expectAccepted(await ex.submit({ type: "proposeOutcome", account: CREATOR, marketId: MARKET, outcome: 0 }));
    clock.set(challengeBy(clock.now()));
    const lastSetupSeq = ex.nextSeq - 1;
    const [tipNow] = await batcher.batches(1);
    if (!(tipNow?.status === "confirmed" && tipNow.lastSeq >= lastSetupSeq)) await confirmed.until((row) => row.lastSeq >= lastSetupSeq);
    const setupDone = performance.now();
    note({ phase: "setup", holders: HOLDERS, populateMs: Math.round(populated - t.start), publishMs: Math.round(setupDone - populated) });
    const [setupTip] = await batcher.batches(1);

    // ---- timed: final resolution → paid (journal committed) → last payout batch confirmed on chain
    const payoutSeq = ex.nextSeq;
    // Nothing else is journaled from here: the batches after the set-up's hold the payout entry's ops, and the last
    // payout batch is the one that brings their count to the entry's (told by onCommitted at its commit).
    let published = 0;
    const lastPayout = confirmed.until((row) => {
      published += row.opCount;
      return row.lastSeq >= payoutSeq && published >= committedOps.last;
    });
    const cpu0 = process.cpuUsage();
    const r0 = performance.now();
    const advanced = await ex.advanceLifecycleDue();
    const paid = performance.now();
    const cpu = process.cpuUsage(cpu0);
    if (!advanced) throw new Error("the proposal did not become final");
    const lc = ex.engine.lifecycle(MARKET)!;
    if (lc.state !== "resolved") throw new Error(`market is ${lc.state}, expected resolved`);
    const settledHolders = ex.engine.payoutReceipts(MARKET)!.length;
    const last = await lastPayout;
    const confirmedAt = last.updatedAt;

    // cpuMs: this process's CPU time over the paid window; far below paidMs means the machine was busy elsewhere.
    note({
      phase: "payout",
      settledHolders,
      ops: committedOps.last,
      paidMs: Math.round(paid - r0),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      confirmedMs: Math.round(confirmedAt - r0),
    });

    // ---- decode: the decoder's replay of the chain over those batches
    const payoutRows = (await batcher.batches(1_000)).filter((row) => row.nonce > setupTip.nonce && row.firstSeq <= payoutSeq).reverse();
    const client = createPublicClient({ transport: http(rpcUrl) });
    const d0 = performance.now();
    const report = await replayLedger({ client, ledger, fromBlock: 0n, toBlock: last.blockNumber! });
    const decodeMs = performance.now() - d0;
    const byTx = new Map(report.batches.map((x) => [x.txHash.toLowerCase(), x]));
    const decoded = payoutRows.map((row) => byTx.get(row.txHash!.toLowerCase()));
    const payoutOps = decoded.reduce((n, x) => n + (x?.ops.filter((op) => op.type === "RESOLUTION_PAYOUT").length ?? 0), 0);
    const decodeOk = report.mismatch === null && decoded.every((x) => x?.rootOk && x.commitmentOk) && payoutOps === HOLDERS;
    const gas = await Promise.all(payoutRows.map((row) => client.getTransactionReceipt({ hash: row.txHash as Hex }).then((rc) => rc.gasUsed)));
    note({
      phase: "decode",
      batches: payoutRows.length,
      payloadBytes: payoutRows.map((row) => (row.payload.length - 2) / 2),
      gasUsed: gas.map(Number),
      decodeMs: Math.round(decodeMs),
      payoutOps,
    });
    console.log(
      JSON.stringify({
        bench: "resolution",
        holders: HOLDERS,
        payoutsPerSec: Math.round(HOLDERS / ((paid - r0) / 1000)),
        confirmedMs: Math.round(confirmedAt - r0),
        decodeOk,
      }),
    );
  } finally {
    await ex?.close();
    await batcher?.stop();
    await cleanup();
    await stopChild(chain);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
