/**
 * Fault: a Postgres restart mid-load (issue 19). The service runs on a PRIVATE PostgreSQL server (initdb + pg_ctl in a
 * temp directory on a free port, test/support/private-postgres.ts; the machine's shared server is never touched).
 * Agents place orders over real HTTP in a loop; mid-load the server is stopped (`pg_ctl stop -m fast`: every
 * connection terminated) for FAULT_PG_DOWN_MS and started again. Every write must answer at once: 2xx, or 503 with
 * Retry-After (never 500, never a hang past the client's timeout); the clients retry a 503 with the same
 * Idempotency-Key and clientOrderId after Retry-After; writes resume after the restart; and every acknowledged order
 * is in the journal exactly once.
 */
import { strict as assert } from "node:assert";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createLocalAgent } from "../../api/domain/auth/local-agents";
import type { Clock } from "../../relayer/clock";
import { IDEMPOTENCY_IN_FLIGHT_LEASE_MS } from "../../api/platform/idempotency/store";
import { readAll } from "../../relayer/journal";
import { containPostgresDriverCrash } from "../../relayer/db/driver-guard";
import { startPrivatePostgres, type PrivatePostgres } from "../support/private-postgres";
import { startTestService, stopTestService, type Json, type TestService } from "../support/service";

const DOWN_MS = Number(process.env.FAULT_PG_DOWN_MS ?? 3_000);
const AGENTS = 6;
const CLIENT_TIMEOUT_MS = 15_000;
/**
 * The service's clock runs SPEED times real time, so the in-flight lease of an Idempotency-Key whose call died with
 * the database (30 s) passes in a test-sized wait; nothing else here depends on the clock.
 */
const SPEED = 20;
const fastClock = (): Clock => {
  const t0 = performance.now();
  const base = 1_800_000_000_000;
  return { now: () => base + Math.round((performance.now() - t0) * SPEED) };
};

describe("fault: a Postgres restart mid-load", () => {
  let pg: PrivatePostgres;
  let t: TestService<Clock>;
  let contained = 0;
  before(async () => {
    // As the service process does (api/main.ts): a known driver crash on a closed socket is contained and counted.
    containPostgresDriverCrash(() => contained++);
    pg = await startPrivatePostgres();
    t = await startTestService(
      {
        DATABASE_URL: pg.url,
        DATABASE_SCHEMA: "fault_pg",
        ...(process.env.FAULT_DEBUG ? { LOG_LEVEL: "info" } : {}),
        RATE_LIMIT_WRITE_PER_MINUTE: "1000000",
        RATE_LIMIT_READ_PER_MINUTE: "1000000",
        RATE_LIMIT_IP_PER_MINUTE: "1000000",
      },
      { clock: fastClock() },
    );
  });
  after(async () => {
    if (t) await stopTestService(t, { keepData: true });
    pg?.destroy();
  });

  it("answers 503 with Retry-After while the database is down, resumes after, and loses no acknowledged order", async () => {
    const list = await fetch(`${t.svc.baseUrl}/discover/markets?pricingModel=ORDERBOOK&pageSize=10`).then((r) => r.json() as Promise<Json>);
    const market = (list.markets as Json[])[0]!.address as string;
    const agents = await Promise.all(Array.from({ length: AGENTS }, (_, i) => createLocalAgent(t.svc.ctx.db, t.clock, { name: `pg-fault-${i}` })));
    const statuses = new Map<number, number>();
    const acked = new Map<string, string>(); // clientOrderId -> orderId
    let retryAfterMissing = 0;
    let inFlight409 = 0;
    let hung = 0;
    let maxMs = 0;
    let firstOkAfterRestart: number | null = null;
    let restartedAt: number | null = null;
    let downAt: number | null = null;
    let stop = false;

    /** One logical order: sent until it is acknowledged, the same key and body each time. */
    const placeUntilAcked = async (key: string, n: number) => {
      const clientOrderId = `${key.slice(0, 8)}-${n}`;
      const idem = randomUUID();
      const body = JSON.stringify({ market, outcome: 0, side: "buy", priceBps: String(100 + (n % 50)), size: "1000000", timeInForce: "GTC", clientOrderId });
      for (;;) {
        const started = performance.now();
        let status: number;
        let retryAfter: string | null = null;
        let json: Json = {};
        try {
          const res = await fetch(`${t.svc.baseUrl}/orderbook/place-order`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": idem },
            body,
            signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
          });
          status = res.status;
          retryAfter = res.headers.get("retry-after");
          json = (await res.json()) as Json;
        } catch {
          hung++;
          status = 0;
        }
        maxMs = Math.max(maxMs, performance.now() - started);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status >= 200 && status < 300) {
          acked.set(clientOrderId, String(json.orderId ?? json.order?.orderId ?? ""));
          if (restartedAt !== null && firstOkAfterRestart === null) firstOkAfterRestart = performance.now() - restartedAt;
          return;
        }
        if ((status === 503 || status === 409) && !retryAfter) retryAfterMissing++;
        // A claim left in flight by a call the database restart cut short: retried until its lease ran out.
        if (status === 409 && json.code === "IDEMPOTENCY_REQUEST_IN_FLIGHT") inFlight409++;
        else if (status !== 503 && status !== 0) throw new Error(`place-order answered ${status}: ${JSON.stringify(json)}`);
        await new Promise((r) => setTimeout(r, Number(retryAfter ?? 1) * 1000 * 0.2));
      }
    };
    const loops = agents.map(async (a) => {
      for (let n = 0; !stop; n++) await placeUntilAcked(a.apiKey, n);
    });
    await new Promise((r) => setTimeout(r, 1_500));
    const before = acked.size;
    downAt = performance.now();
    pg.stop();
    await new Promise((r) => setTimeout(r, DOWN_MS));
    const duringDown = acked.size;
    pg.start();
    restartedAt = performance.now();
    const downForMs = Math.round(restartedAt - downAt);
    await new Promise((r) => setTimeout(r, 4_000));
    stop = true;
    await Promise.all(loops);

    // Every acknowledged order is in the journal exactly once.
    const placed = new Map<string, number>();
    for await (const e of readAll(t.svc.ctx.db)) {
      const cmd = JSON.parse(e.command) as { type: string; clientOrderId?: string };
      if (cmd.type === "placeOrder" && cmd.clientOrderId) placed.set(cmd.clientOrderId, (placed.get(cmd.clientOrderId) ?? 0) + 1);
    }
    const lost = [...acked.keys()].filter((id) => !placed.has(id)).length;
    const doubled = [...placed.values()].filter((c) => c > 1).length;
    const figures = {
      fault: "postgres-restart",
      mode: "private server, pg_ctl stop -m fast / start",
      downMs: downForMs,
      acknowledged: acked.size,
      acknowledgedBeforeDown: before,
      acknowledgedWhileDown: duringDown - before,
      answered503: statuses.get(503) ?? 0,
      answered500: statuses.get(500) ?? 0,
      hung,
      retryAfterMissing,
      inFlightRetries: inFlight409,
      inFlightLeaseMs: IDEMPOTENCY_IN_FLIGHT_LEASE_MS,
      maxResponseMs: Math.round(maxMs),
      resumedAfterMs: firstOkAfterRestart === null ? null : Math.round(firstOkAfterRestart),
      driverCrashesContained: contained,
      ordersLost: lost,
      ordersDoubled: doubled,
      statuses: Object.fromEntries(statuses),
    };
    console.log(JSON.stringify(figures));
    assert.ok((statuses.get(503) ?? 0) > 0, "writes were refused with 503 while the database was down");
    assert.equal(figures.answered500, 0);
    assert.equal(hung, 0, "no write hung past the client's timeout");
    assert.equal(retryAfterMissing, 0, "every 503 carries Retry-After");
    assert.ok(firstOkAfterRestart !== null, "writes resumed after the restart");
    assert.ok(acked.size > duringDown, "orders were acknowledged after the restart");
    assert.equal(lost, 0);
    assert.equal(doubled, 0);
  });
});
