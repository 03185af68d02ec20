/**
 * `npm run bench:api`: HTTP throughput and latency of the agent API on one service started here (startService on a
 * temp DATA_DIR: PGlite, or Postgres in a fresh schema when DATABASE_URL is set). Prints one JSON object per line:
 *   {"bench":"api-reads","rps":…,"p50Ms":…,"p99Ms":…}       GET /discover/markets, market detail, depth (no key)
 *   {"bench":"api-orders-reference","database":…,"connections":…,"rps":…,"p99Ms":…}
 *        the ceiling of a durable HTTP write here (scripts/bench-api-reference.ts), run just before each api-orders line
 *   {"bench":"api-orders","database":…,"connections":…,"rps":…,"p50Ms":…,"p99Ms":…,"errors":…,"ratio":…}
 *        POST /orderbook/place-order, a unique Idempotency-Key each; ratio = its rps / the reference's rps;
 *        loopMsPerRequest: the service thread's busy ms per request (both lines), loopMsRatio: place-order's over the reference's;
 *        cpuMsPerRequest / cpuMsRatio: the same with the thread's CPU time (Linux; null elsewhere)
 *        (busy time still counts a thread descheduled mid-task, so it is noisy on a loaded machine: compare within a run)
 *   {"bench":"fill-to-report","transport":"sse"|"ws","p50Ms":…,"p99Ms":…}
 *        crossing order sent -> the taker's `execution:report` fill parsed from its stream (maker's in makerP50Ms/P99Ms)
 * Targets (printed, never enforced): reads ≥ 5,000/s with p99 ≤ 10 ms; fill-to-report p99 ≤ 50 ms.
 * The load generator (autocannon) runs in a worker thread so it does not share the service's event loop.
 * Rate limits are raised for this service only (the product defaults would throttle a bench): see each line's note.
 * Env: BENCH_DURATION_S (10), BENCH_CONNECTIONS (reads: 10), BENCH_ORDER_CONNECTIONS (orders: "10,100"), BENCH_SAMPLES (200), BENCH_ONLY (reads | orders | fills: one part,
 * e.g. to profile it with `node --cpu-prof --import tsx scripts/bench-api.ts`).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import { loadConfig } from "../api/config";
import { startService } from "../api/service";
import { systemClock } from "../relayer/clock";
import { createLocalAgent, type LocalAgent } from "../api/domain/auth/local-agents";
import { openSse, openWs } from "../api/transports/realtime/test-clients";
import { z } from "zod";
import { benchServiceEnv, scriptEnv } from "./env";
import { startReference } from "./bench-api-reference";

const ENV = scriptEnv({
  BENCH_DURATION_S: z.coerce.number().int().positive().default(10),
  BENCH_CONNECTIONS: z.coerce.number().int().positive().default(10),
  BENCH_ORDER_CONNECTIONS: z
    .string()
    .default("10,100")
    .transform((v) => v.split(",").map((n) => Number(n.trim())))
    .pipe(z.array(z.number().int().positive()).min(1)),
  BENCH_SAMPLES: z.coerce.number().int().positive().default(200),
  BENCH_ONLY: z.enum(["reads", "orders", "fills"]).optional(),
  DATABASE_URL: z.string().optional(),
  /** PGlite on a worker thread (default) or on the service's thread, for a before/after of docs/api-performance.md. */
  PGLITE_THREAD: z.enum(["worker", "main"]).default("worker"),
});
const DURATION_S = ENV.BENCH_DURATION_S;
const CONNECTIONS = ENV.BENCH_CONNECTIONS;
const SAMPLES = ENV.BENCH_SAMPLES;
const ONLY = ENV.BENCH_ONLY;
const runs = (part: "reads" | "orders" | "fills") => ONLY === undefined || ONLY === part;
const LOT = 10_000n;
const UNLIMITED = "1000000000";
const NOTE = "rate limits raised for the bench (RATE_LIMIT_IP/READ/WRITE_PER_MINUTE=1e9); product defaults unchanged";

/** Counts by status when some answers were not 2xx (e.g. {"409": 3}). */
const statuses = (r: autocannon.Result) =>
  r.non2xx === 0
    ? {}
    : {
        statusCodes: Object.fromEntries(
          Object.entries((r as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats ?? {}).map(([k, v]) => [k, v.count]),
        ),
      };

/**
 * Busy time of this thread's event loop (the service's; the load generator has its own thread) per request answered:
 * a figure of the work a request costs here that, unlike rps, hardly moves with the load of the rest of the machine.
 */
const loopMsPerRequest = (elu: { active: number }, requests: number): number => (requests > 0 ? Number((elu.active / requests).toFixed(4)) : 0);

/**
 * CPU time this thread was given so far, in ms (Linux: utime + stime of /proc/thread-self/stat, in clock ticks), or
 * null elsewhere. Per request it is the service thread's cost without the time it was ready but waiting for a core,
 * which loop busy time still counts: the steadier figure on a shared machine.
 */
const CLOCK_TICKS_PER_S = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || null;
  } catch {
    return null;
  }
})();
function threadCpuMs(): number | null {
  if (CLOCK_TICKS_PER_S === null) return null;
  try {
    const fields = readFileSync("/proc/thread-self/stat", "utf8").split(")").pop()!.trim().split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S; // fields 14 and 15 of stat(5)
  } catch {
    return null;
  }
}
const cpuMsPerRequest = (from: number | null, requests: number): number | null => {
  const to = threadCpuMs();
  return from === null || to === null || requests === 0 ? null : Number(((to - from) / requests).toFixed(4));
};

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2));
};

// biome-ignore lint/suspicious/noExplicitAny: the bench reads untyped JSON bodies
type Json = Record<string, any>;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pm-bench-api-"));
  const schema = ENV.DATABASE_URL ? `bench_api_${randomUUID().slice(0, 8)}` : undefined;
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    ...benchServiceEnv(dir),
    DATABASE_URL: ENV.DATABASE_URL,
    ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    PGLITE_THREAD: ENV.PGLITE_THREAD,
    INDEXER_ENABLED: "false",
    RATE_LIMIT_IP_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_READ_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_WRITE_PER_MINUTE: UNLIMITED,
  });
  // publish: false: no chain here; the journal is still written (that is what an order costs).
  const svc = await startService(config, { clock: systemClock, publish: false });
  const database = schema ? "postgres" : "pglite";
  const placement = schema ? {} : { pgliteThread: ENV.PGLITE_THREAD };
  try {
    const origin = new URL(svc.baseUrl).origin;
    const basePath = new URL(svc.baseUrl).pathname;
    const call = async (key: string | null, method: string, path: string, body?: unknown): Promise<Json> => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (key) headers.authorization = `Bearer ${key}`;
      if (method !== "GET") headers["idempotency-key"] = randomUUID();
      const res = await fetch(`${svc.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as Json;
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const books = ((await call(null, "GET", "/discover/markets?pricingModel=ORDERBOOK&pageSize=100")).markets as Json[]).map((m) => m.address as string);
    if (books.length === 0) throw new Error("no ORDERBOOK market: the demo markets are not seeded");
    const agents: LocalAgent[] = [];
    for (let i = 0; i < 4; i++) agents.push(await createLocalAgent(svc.ctx.db, systemClock, { name: `bench-api-${i}` }));
    // Some resting orders so depth reads walk a real book.
    for (const m of books) {
      const orders = [1, 2, 3, 4, 5].flatMap((i) => [
        { outcome: 0, side: "buy", priceBps: String(4000 - i * 50), size: String(LOT * 100n), timeInForce: "GTC" },
        { outcome: 1, side: "buy", priceBps: String(4000 - i * 50), size: String(LOT * 100n), timeInForce: "GTC" },
      ]);
      await call(agents[0].apiKey, "POST", "/orderbook/place-order", { market: m, orders });
    }

    // 1. Discovery reads, public (charged to the per-IP window).
    if (runs("reads")) {
      const reads = await autocannon({
        url: origin,
        connections: CONNECTIONS,
        duration: DURATION_S,
        workers: 1,
        requests: [
          { method: "GET", path: `${basePath}/discover/markets` },
          ...books.flatMap((m) => [
            { method: "GET" as const, path: `${basePath}/discover/markets/${m}` },
            { method: "GET" as const, path: `${basePath}/discover/markets/${m}/depth` },
          ]),
        ],
      });
      console.log(
        JSON.stringify({
          bench: "api-reads",
          rps: Math.round(reads.requests.average),
          p50Ms: reads.latency.p50,
          p99Ms: reads.latency.p99,
          requests: reads.requests.total,
          non2xx: reads.non2xx,
          ...statuses(reads),
          errors: reads.errors,
          connections: CONNECTIONS,
          durationS: DURATION_S,
          database,
          note: NOTE,
        }),
      );
    }

    // 2. Order placements: 1-lot YES bids far below any ask (never cross, lock ≤ 0.0001 PM each), keys round-robin.
    if (runs("orders")) {
      const setup = join(dir, "place-order-setup.cjs");
      writeFileSync(
        setup,
        [
          `const { randomUUID } = require("node:crypto");`,
          `const keys = ${JSON.stringify(agents.map((a) => a.apiKey))};`,
          `const tag = randomUUID().slice(0, 8);`,
          `let n = 0;`,
          `module.exports = (req) => {`,
          `  n++;`,
          `  req.headers = { ...req.headers, authorization: "Bearer " + keys[n % keys.length], "idempotency-key": "bench-" + tag + "-" + n };`,
          `  return req;`,
          `};`,
        ].join("\n"),
      );
      const orderBody = (m: string, i: number) =>
        JSON.stringify({ market: m, outcome: 0, side: "buy", priceBps: String(100 + i), size: String(LOT), timeInForce: "GTC" });
      const reference = await startReference(svc.ctx.db);
      try {
        for (const connections of ENV.BENCH_ORDER_CONNECTIONS) {
          let loop = performance.eventLoopUtilization();
          let cpu = threadCpuMs();
          const ref = await autocannon({
            url: reference.url,
            connections,
            duration: DURATION_S,
            workers: 1,
            requests: books.map((m, i) => ({
              method: "POST" as const,
              path: "/orders",
              headers: { "content-type": "application/json" },
              body: orderBody(m, i),
            })),
          });
          const refRps = Math.round(ref.requests.average);
          const refLoopMs = loopMsPerRequest(performance.eventLoopUtilization(loop), ref.requests.total);
          const refCpuMs = cpuMsPerRequest(cpu, ref.requests.total);
          console.log(
            JSON.stringify({
              bench: "api-orders-reference",
              database,
              ...placement,
              connections,
              rps: refRps,
              p50Ms: ref.latency.p50,
              p99Ms: ref.latency.p99,
              non2xx: ref.non2xx,
              errors: ref.errors,
              loopMsPerRequest: refLoopMs,
              cpuMsPerRequest: refCpuMs,
              durationS: DURATION_S,
            }),
          );
          loop = performance.eventLoopUtilization();
          cpu = threadCpuMs();
          const orders = await autocannon({
            url: origin,
            connections,
            duration: DURATION_S,
            workers: 1,
            requests: books.map((m, i) => ({
              method: "POST" as const,
              path: `${basePath}/orderbook/place-order`,
              headers: { "content-type": "application/json" },
              body: orderBody(m, i),
              setupRequest: setup as unknown as autocannon.Request["setupRequest"],
            })),
          });
          const rps = Math.round(orders.requests.average);
          const ordersLoopMs = loopMsPerRequest(performance.eventLoopUtilization(loop), orders.requests.total);
          const ordersCpuMs = cpuMsPerRequest(cpu, orders.requests.total);
          console.log(
            JSON.stringify({
              bench: "api-orders",
              database,
              ...placement,
              connections,
              rps,
              p50Ms: orders.latency.p50,
              p99Ms: orders.latency.p99,
              errors: orders.errors + orders.non2xx,
              ratio: refRps > 0 ? Number((rps / refRps).toFixed(3)) : null,
              requests: orders.requests.total,
              loopMsPerRequest: ordersLoopMs,
              loopMsRatio: refLoopMs > 0 ? Number((ordersLoopMs / refLoopMs).toFixed(2)) : null,
              cpuMsPerRequest: ordersCpuMs,
              cpuMsRatio: refCpuMs && ordersCpuMs !== null ? Number((ordersCpuMs / refCpuMs).toFixed(2)) : null,
              non2xx: orders.non2xx,
              timeouts: orders.timeouts,
              ...statuses(orders),
              durationS: DURATION_S,
              note: NOTE,
            }),
          );
        }
      } finally {
        await reference.close();
      }
    }

    // 3. Fill to report: the maker's 1-lot YES bid rests, then the taker's NO buy at the same price mints against it.
    const market = books[0];
    for (const transport of runs("fills") ? (["sse", "ws"] as const) : []) {
      const maker = await createLocalAgent(svc.ctx.db, systemClock, { name: `bench-maker-${transport}` });
      const taker = await createLocalAgent(svc.ctx.db, systemClock, { name: `bench-taker-${transport}` });
      const arrived = new Map<string, number>(); // "<orderId or clientOrderId>" -> arrival time of its fill report
      let wake: (() => void) | null = null;
      const onReport = (data: Json) => {
        if (data.kind !== "fill") return;
        arrived.set(String(data.clientOrderId ?? data.orderId), performance.now());
        arrived.set(String(data.orderId), performance.now());
        wake?.();
      };
      const closers: (() => void)[] = [];
      for (const a of [maker, taker]) {
        if (transport === "ws") {
          const c = await openWs(`${svc.baseUrl.replace(/^http/, "ws")}/ws`, { authorization: `Bearer ${a.apiKey}` });
          c.ws.on("message", (d) => {
            const m = JSON.parse(d.toString()) as Json;
            if (m.type === "execution:report") onReport(m.data as Json);
          });
          c.send({ type: "subscribe", channel: "execution" });
          await c.messages.waitFor((m) => m.type === "subscribed");
          closers.push(c.close);
        } else {
          const s = await openSse(`${svc.baseUrl}/events/stream`, { authorization: `Bearer ${a.apiKey}` });
          if (s.status !== 200) throw new Error(`SSE stream: ${s.status} ${s.body}`);
          await s.events.waitFor((e) => e.event === "ready");
          const push = s.events.push.bind(s.events);
          s.events.push = (e) => (e.event === "execution:report" ? onReport((e.data as Json).data as Json) : push(e)); // SSE data is the envelope
          closers.push(s.close);
        }
      }
      const until = async (keys: string[]) => {
        const deadline = performance.now() + 5000;
        while (!keys.every((k) => arrived.has(k))) {
          if (performance.now() > deadline) throw new Error(`no fill report for ${keys.join(", ")} within 5 s`);
          await new Promise<void>((r) => {
            wake = r;
            setTimeout(r, 50);
          });
        }
      };
      const takerMs: number[] = [];
      const makerMs: number[] = [];
      try {
        for (let i = 0; i < SAMPLES; i++) {
          const rest = await call(maker.apiKey, "POST", "/orderbook/place-order", {
            market,
            outcome: 0,
            side: "buy",
            priceBps: "5000",
            size: String(LOT),
            timeInForce: "GTC",
          });
          const makerOrder = String(rest.orders[0].orderId);
          const cid = `t-${transport}-${i}`;
          const t0 = performance.now();
          const sent = call(taker.apiKey, "POST", "/orderbook/place-order", {
            market,
            outcome: 1,
            side: "buy",
            priceBps: "5000",
            size: String(LOT),
            timeInForce: "IOC",
            clientOrderId: cid,
          });
          await until([cid, makerOrder]);
          await sent;
          takerMs.push(arrived.get(cid)! - t0);
          makerMs.push(arrived.get(makerOrder)! - t0);
        }
      } finally {
        closers.forEach((c) => c());
      }
      console.log(
        JSON.stringify({
          bench: "fill-to-report",
          transport,
          p50Ms: pct(takerMs, 50),
          p99Ms: pct(takerMs, 99),
          makerP50Ms: pct(makerMs, 50),
          makerP99Ms: pct(makerMs, 99),
          samples: SAMPLES,
          database,
        }),
      );
    }
  } finally {
    if (schema) await svc.ctx.db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
