/**
 * The crash test: a child process runs an Exchange with a trading run and prints every acknowledged fill; it is
 * SIGKILLed mid-run and restarted. Every acknowledged fill must be in the journal exactly once, no fill doubled, the
 * journal must replay (determinism guard), and the batcher's publication must replay on chain to the engine's root.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, it } from "node:test";
import { createPublicClient, http } from "viem";
import { replayLedger } from "../../decoder/replay/replay";
import { freePort } from "../../test/support/ports";
import { systemClock } from "../clock";
import { openDatabase, type Database } from "../db/client";
import { Batcher } from "../batcher";
import { deployLedger, OPERATOR_KEY, startChain } from "../../scripts/stack/chain";
import { opsFromJson, readAll } from "../journal";
import { Exchange } from "./exchange";
import { RUN_TREASURY, runEngineConfig } from "./trading-run";

interface Fill {
  account: string;
  seq: number;
  tradeId: string;
}

/** Runs the child; kills it with SIGKILL once `killAfterFills` fills were acknowledged (or lets it finish). */
function runChild(args: string[], killAfterFills: number | null): Promise<{ fills: Fill[]; done: boolean; killed: boolean }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(__dirname, "crash-child.ts"), ...args], {
    cwd: join(__dirname, "..", ".."),
    stdio: ["ignore", "pipe", "pipe"],
    env: process.env,
  });
  const fills: Fill[] = [];
  let done = false;
  let killed = false;
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  createInterface({ input: child.stdout }).on("line", (line) => {
    const [tag, account, seq, tradeId] = line.split(" ");
    if (tag === "FILL") {
      fills.push({ account, seq: Number(seq), tradeId });
      if (killAfterFills !== null && fills.length >= killAfterFills && !killed) {
        killed = true;
        child.kill("SIGKILL");
      }
    } else if (tag === "DONE") done = true;
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code, signal) => {
      if (signal === "SIGKILL" || code === 0) resolve({ fills, done, killed });
      else reject(new Error(`crash-child exited ${code}: ${stderr}`));
    });
  });
}

describe("crash test: SIGKILL mid-run", () => {
  it("keeps every acknowledged fill exactly once, rebuilds, and publishes a chain that replays to the engine's root", { timeout: 240_000 }, async () => {
    const url = process.env.DATABASE_URL;
    const dir = mkdtempSync(join(tmpdir(), "pm-crash-"));
    const schema = `crash_${randomBytes(4).toString("hex")}`;
    const where = url ? ["-", schema] : [join(dir, "data"), "-"];
    const open = (): Promise<Database> => openDatabase(url ? { databaseUrl: url, schema } : { dataDir: join(dir, "data") });
    const chain = await startChain(await freePort());
    try {
      const first = await runChild([...where, "0", "100000"], 150);
      assert.ok(first.killed && !first.done, "the child was killed mid-run");
      const second = await runChild([...where, "100000", "30"], null);
      assert.ok(second.done, "the restarted child rebuilt and finished its run");
      const acknowledged = [...first.fills, ...second.fills];
      assert.ok(acknowledged.length >= 150 + 60);

      const db = await open();
      try {
        const reports = await db.query<{ account: string; seq: number; body: string }>(`SELECT account, seq, body::text AS body FROM execution_reports`);
        const byKey = new Map(reports.map((r) => [`${r.account}/${r.seq}`, JSON.parse(r.body) as { kind: string; tradeId?: string }]));
        for (const f of acknowledged) {
          const stored = byKey.get(`${f.account}/${f.seq}`);
          assert.ok(stored, `acknowledged fill ${f.account}/${f.seq} is in the journal`);
          assert.equal(stored.kind, "fill");
          assert.equal(stored.tradeId, f.tradeId);
        }
        // No fill doubled: every trade id has exactly its two reports (maker + taker) and one MATCH op.
        const perTrade = new Map<string, number>();
        for (const r of byKey.values()) if (r.kind === "fill") perTrade.set(r.tradeId!, (perTrade.get(r.tradeId!) ?? 0) + 1);
        for (const [tradeId, n] of perTrade) assert.equal(n, 2, `trade ${tradeId} has ${n} fill reports`);
        let matches = 0;
        for await (const e of readAll(db)) matches += opsFromJson(e.ops).filter((o) => o.type === "MATCH").length;
        assert.equal(matches, perTrade.size);
        // The killed child may die between printing a trade's two sides; the finished one printed both of each.
        const printed = (fills: { tradeId: string }[]) => fills.reduce((m, f) => m.set(f.tradeId, (m.get(f.tradeId) ?? 0) + 1), new Map<string, number>());
        for (const [tradeId, n] of printed(acknowledged)) assert.ok(n <= 2, `trade ${tradeId} acknowledged ${n} times`);
        for (const [tradeId, n] of printed(second.fills)) assert.equal(n, 2, `trade ${tradeId} of the finished run printed by both sides`);

        const ex = await Exchange.open({ db, clock: systemClock, engineConfig: runEngineConfig });
        const ledger = await deployLedger(chain.rpcUrl);
        const batcher = await Batcher.open({
          db,
          rpcUrl: chain.rpcUrl,
          ledger,
          operatorKey: OPERATOR_KEY,
          treasury: RUN_TREASURY,
          intervalMs: 100,
          maxOps: 400,
        });
        while (await batcher.publishOnce());
        const report = await replayLedger({ client: createPublicClient({ transport: http(chain.rpcUrl) }) as never, ledger });
        assert.equal(report.mismatch, null);
        assert.equal(await report.state.root(), await ex.engine.ledger.root());
        await ex.close();
      } finally {
        if (url) await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await db.close();
      }
    } finally {
      await chain.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
