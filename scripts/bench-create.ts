/**
 * `npm run bench:create`: market creation through the API on one service started here (PGlite on a temp DATA_DIR).
 * 1,000 ORDERBOOK markets, each by the whole negotiate flow over HTTP (propose → accept → prepare-deploy →
 * commit-deploy; propose runs every preflight check), from BENCH_CREATORS creators at BENCH_CONCURRENCY in flight.
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
import { z } from "zod";
import { loadConfig } from "../api/config";
import { startService } from "../api/service";
import { systemClock } from "../relayer/clock";
import { createLocalAgent } from "../api/domain/auth/local-agents";
import { setCreatorTier } from "../api/domain/markets/creation/creator-admin";
import { scriptEnv } from "./env";

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
    DATA_DIR: dir,
    // No chain here: an empty deployments dir makes the fee defaults the deployment's schedule, not a chain read
    DEPLOYMENTS_DIR: join(dir, "deployments"),
    LOG_LEVEL: "silent",
    DATABASE_URL: undefined,
    INDEXER_ENABLED: "false",
    SEED_DEMO_MARKETS: "false",
    RATE_LIMIT_IP_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_READ_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_WRITE_PER_MINUTE: UNLIMITED,
  });
  const svc = await startService(config, { clock: systemClock, publish: false });
  try {
    const base = svc.baseUrl;
    const creators: Awaited<ReturnType<typeof createLocalAgent>>[] = [];
    for (let i = 0; i < ENV.BENCH_CREATORS; i++) {
      const a = await createLocalAgent(svc.ctx.db, systemClock, { name: `bench-creator-${i}` });
      await setCreatorTier(svc.ctx.db, a.ledgerAccount, "partner", systemClock.now());
      creators.push(a);
    }
    const call = async (key: string, method: string, path: string, body?: unknown) => {
      // One Idempotency-Key per call, kept across retries: a POST whose answer was lost to a reset connection is
      // replayed, never run twice (the loaded machine's sockets do get reset under this load).
      const headers = { authorization: `Bearer ${key}`, ...(method === "POST" ? { "content-type": "application/json", "idempotency-key": randomUUID() } : {}) };
      for (let attempt = 1; ; attempt++) {
        let res: Response;
        try {
          res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        } catch (err) {
          if (attempt >= 5) throw err;
          retries++;
          continue;
        }
        const json = (await res.json()) as Answer;
        // A retry that overtakes its first attempt meets the claim in flight: wait for the first to answer.
        if (res.status === 409 && (json as { code?: string }).code === "IDEMPOTENCY_REQUEST_IN_FLIGHT" && attempt < 50) {
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
        return json;
      }
    };
    const closeTime = new Date(systemClock.now() + 30 * 86_400_000).toISOString();
    let retries = 0;
    const flowMs: number[] = [];
    const visibleMs: number[] = [];
    let next = 0;
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= ENV.BENCH_MARKETS) return;
        const c = creators[i % creators.length]!;
        const t0 = performance.now();
        const p = await call(c.apiKey, "POST", "/negotiate/propose", {
          externalId: `bench-${i}`,
          title: `Will bench market number ${i} be created in time?`,
          pricingModel: "ORDERBOOK",
          collateral: "PM",
          category: "TECH",
          closeTime,
          resolutionSource: { type: "creator", note: "bench" },
        });
        await call(c.apiKey, "POST", `/negotiate/${p.id}/accept`, {});
        await call(c.apiKey, "POST", `/negotiate/${p.id}/prepare-deploy`, {});
        const d = await call(c.apiKey, "POST", `/negotiate/${p.id}/commit-deploy`, {});
        const t1 = performance.now();
        flowMs.push(t1 - t0);
        for (;;) {
          const list = await call(c.apiKey, "GET", `/discover/markets?creator=${c.ledgerAccount}&pageSize=5`);
          if ((list.markets ?? []).some((m) => m.address === d.market?.address)) break;
        }
        visibleMs.push(performance.now() - t1);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: ENV.BENCH_CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    console.log(
      JSON.stringify({
        bench: "create",
        database: "pglite",
        markets: ENV.BENCH_MARKETS,
        marketsPerSec: Math.round((ENV.BENCH_MARKETS / seconds) * 10) / 10,
        p99Ms: p99(flowMs),
        visibleP99Ms: p99(visibleMs),
        retries,
        note: `${ENV.BENCH_CREATORS} creators, ${ENV.BENCH_CONCURRENCY} flows in flight, 4 calls per market; targets marketsPerSec >= 200, visibleP99Ms <= 100`,
      }),
    );
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
