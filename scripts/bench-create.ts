/**
 * `npm run bench:create`: market creation through the API on one service started here (PGlite on a temp DATA_DIR).
 * 1,000 ORDERBOOK markets, each by the whole negotiate flow over HTTP (propose → accept → prepare-deploy →
 * commit-deploy; propose runs every preflight check), from BENCH_CREATORS creators at BENCH_CONCURRENCY in flight.
 * The agents run in a worker thread of their own (keep-alive node:http), so the service's event loop serves only them.
 * Prints one line:
 *   {"bench":"create","database":"pglite","markets":1000,"marketsPerSec":…,"p99Ms":…,"visibleP99Ms":…}
 * p99Ms: one market's flow, propose sent → commit-deploy answered. visibleP99Ms: commit-deploy answered → the market
 * listed by GET /discover/markets (polled by creator, newest first). Targets (printed, never enforced):
 * marketsPerSec ≥ 200, visibleP99Ms ≤ 100. The creators hold the operator's `partner` tier (set through the same
 * domain function the admin API calls) so the concurrent limit does not cap the bench; rate limits are raised.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { z } from "zod";
import { loadConfig } from "../api/config";
import { startService } from "../api/service";
import { systemClock } from "../relayer/clock";
import { tsWorker } from "../relayer/ts-worker";
import { createLocalAgent } from "../api/domain/auth/local-agents";
import { setCreatorTier } from "../api/domain/creation/creator-admin";
import { benchServiceEnv, scriptEnv } from "./env";

const ENV = scriptEnv({
  BENCH_MARKETS: z.coerce.number().int().positive().default(1_000),
  BENCH_CREATORS: z.coerce.number().int().positive().default(20),
  BENCH_CONCURRENCY: z.coerce.number().int().positive().default(16),
});
const UNLIMITED = "1000000000";

/** The fields of the flow's answers the bench reads. */
interface Answer {
  id?: string;
  market?: { address: string };
  markets?: { address: string }[];
}

const p99 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)]! * 10) / 10;
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pm-bench-create-"));
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    ...benchServiceEnv(dir),
    DATABASE_URL: undefined,
    INDEXER_ENABLED: "false",
    SEED_DEMO_MARKETS: "false",
    RATE_LIMIT_IP_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_READ_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_WRITE_PER_MINUTE: UNLIMITED,
  });
  const svc = await startService(config, { clock: systemClock, publish: false });
  try {
    const creators: Awaited<ReturnType<typeof createLocalAgent>>[] = [];
    for (let i = 0; i < ENV.BENCH_CREATORS; i++) {
      const a = await createLocalAgent(svc.ctx.db, systemClock, { name: `bench-creator-${i}` });
      await setCreatorTier(svc.ctx.db, a.ledgerAccount, "partner", systemClock.now());
      creators.push(a);
    }
    const closeTime = new Date(systemClock.now() + 30 * 86_400_000).toISOString();
    const work: ClientWork = {
      base: svc.baseUrl,
      keys: creators.map((c) => c.apiKey),
      accounts: creators.map((c) => c.ledgerAccount),
      closeTime,
      markets: ENV.BENCH_MARKETS,
      concurrency: ENV.BENCH_CONCURRENCY,
    };
    // The clients run in a worker thread, as an agent's would run in its own process: the service's event loop
    // serves the API and nothing else (bench:api's load generator does the same).
    const loop = performance.eventLoopUtilization();
    const result = await new Promise<ClientResult>((resolve, reject) => {
      const worker = tsWorker(__filename, work);
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the client thread exited (${code})`)));
    });
    // The service thread's busy time per market (its five calls). It is not free of the machine's load: a thread that
    // is descheduled in the middle of a task counts as busy, so compare it only within one run or one quiet window.
    const loopMsPerMarket = Number((performance.eventLoopUtilization(loop).active / ENV.BENCH_MARKETS).toFixed(3));
    const { flowMs, visibleMs, retries, seconds } = result;
    console.log(
      JSON.stringify({
        bench: "create",
        database: "pglite",
        markets: ENV.BENCH_MARKETS,
        marketsPerSec: Math.round((ENV.BENCH_MARKETS / seconds) * 10) / 10,
        p99Ms: p99(flowMs),
        visibleP99Ms: p99(visibleMs),
        retries,
        loopMsPerMarket,
        note: `${ENV.BENCH_CREATORS} creators, ${ENV.BENCH_CONCURRENCY} flows in flight, 4 calls per market; targets marketsPerSec >= 200, visibleP99Ms <= 100`,
      }),
    );
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the client thread is given, and what it answers. */
interface ClientWork {
  base: string;
  keys: string[];
  accounts: string[];
  closeTime: string;
  markets: number;
  concurrency: number;
}
interface ClientResult {
  flowMs: number[];
  visibleMs: number[];
  retries: number;
  /** From the first flow's start to the last one's end, in the client thread. */
  seconds: number;
}

/** The agents: `concurrency` flows over keep-alive HTTP/1.1 connections, each market by the whole negotiate flow. */
async function runClients(work: ClientWork): Promise<ClientResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: work.concurrency * 2 });
  const { hostname, port, pathname } = new URL(work.base);
  const prefix = pathname.replace(/\/$/, "");
  let retries = 0;
  const once = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ status: number; json: Answer & { code?: string } }>((resolve, reject) => {
      const req = http.request({ agent, hostname, port, method, path: prefix + path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
          } catch (err) {
            reject(err);
          }
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  const call = async (key: string, method: string, path: string, body?: unknown) => {
    // One Idempotency-Key per call, kept across retries: a POST whose answer was lost to a reset connection is
    // replayed, never run twice (the loaded machine's sockets do get reset under this load).
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (method === "POST")
      Object.assign(headers, { "content-type": "application/json", "idempotency-key": randomUUID(), "content-length": String(Buffer.byteLength(text ?? "")) });
    for (let attempt = 1; ; attempt++) {
      let answer: Awaited<ReturnType<typeof once>>;
      try {
        answer = await once(method, path, headers, text);
      } catch (err) {
        if (attempt >= 5) throw err;
        retries++;
        continue;
      }
      // A retry that overtakes its first attempt meets the claim in flight: wait for the first to answer.
      if (answer.status === 409 && answer.json.code === "IDEMPOTENCY_REQUEST_IN_FLIGHT" && attempt < 50) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      if (answer.status >= 300) throw new Error(`${method} ${path} -> ${answer.status} ${JSON.stringify(answer.json).slice(0, 300)}`);
      return answer.json;
    }
  };
  const flowMs: number[] = [];
  const visibleMs: number[] = [];
  let next = 0;
  const flow = async () => {
    for (;;) {
      const i = next++;
      if (i >= work.markets) return;
      const key = work.keys[i % work.keys.length]!;
      const account = work.accounts[i % work.accounts.length]!;
      const t0 = performance.now();
      const p = await call(key, "POST", "/negotiate/propose", {
        externalId: `bench-${i}`,
        title: `Will bench market number ${i} be created in time?`,
        pricingModel: "ORDERBOOK",
        collateral: "PM",
        category: "TECH",
        closeTime: work.closeTime,
        resolutionSource: { type: "creator", note: "bench" },
      });
      await call(key, "POST", `/negotiate/${p.id}/accept`, {});
      await call(key, "POST", `/negotiate/${p.id}/prepare-deploy`, {});
      const d = await call(key, "POST", `/negotiate/${p.id}/commit-deploy`, {});
      const t1 = performance.now();
      flowMs.push(t1 - t0);
      for (;;) {
        const list = await call(key, "GET", `/discover/markets?creator=${account}&pageSize=5`);
        if ((list.markets ?? []).some((m) => m.address === d.market?.address)) break;
      }
      visibleMs.push(performance.now() - t1);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: work.concurrency }, flow));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { flowMs, visibleMs, retries, seconds };
}

if (isMainThread) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  runClients(workerData as ClientWork).then(
    (result) => parentPort!.postMessage(result),
    (err) => {
      throw err;
    },
  );
}
