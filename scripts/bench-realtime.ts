/**
 * `npm run bench:realtime`: fan-out latency and throughput of the realtime surface on one in-process service (PGlite).
 * Prints one JSON object per line:
 *   {"bench":"realtime-ws","clients":C,"reports":R,"deliveries":C*R,"ms":…,"perSec":…,"p50Ms":…,"p99Ms":…}
 *   {"bench":"realtime-sse", ...same fields}
 *   {"bench":"webhooks","deliveries":N,"ms":…,"perSec":…}   signed POSTs to a local receiver, one worker pass
 * Latency = report committed to the in-memory log -> message parsed by the client, same process and clock.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../api/config";
import { startService } from "../api/service";
import { systemClock } from "../relayer/clock";
import { createLocalAgent } from "../api/domain/auth/local-agents";
import { connectRealtimeSources } from "../api/transports/delivery";
import { MemoryReportLog } from "../api/transports/realtime/memory-sources";
import { openSse, openWs } from "../api/transports/realtime/test-clients";
import { createSubscription, enqueueDelivery } from "../api/domain/webhooks/store";
import { z } from "zod";
import { benchServiceEnv, scriptEnv } from "./env";

const ENV = scriptEnv({
  BENCH_CLIENTS: z.coerce.number().int().positive().default(50),
  BENCH_REPORTS: z.coerce.number().int().positive().default(1000),
  BENCH_DELIVERIES: z.coerce.number().int().positive().default(300),
});
const CLIENTS = ENV.BENCH_CLIENTS;
const REPORTS = ENV.BENCH_REPORTS;
const DELIVERIES = ENV.BENCH_DELIVERIES;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2));
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pm-bench-rt-"));
  const svc = await startService(
    loadConfig({
      PORT: "0",
      ...benchServiceEnv(dir),
      WEBHOOKS_ALLOW_PRIVATE: "true",
      WEBHOOKS_POLL_MS: "3600000",
      RATE_LIMIT_IP_PER_MINUTE: "100000",
      // One agent holds every client's stream here (the product default is REALTIME_MAX_STREAMS_PER_AGENT=20); twice
      // the clients, since one transport's streams may still be closing when the next one's open.
      REALTIME_MAX_STREAMS_PER_AGENT: String(2 * CLIENTS),
    }),
    { clock: systemClock },
  );
  try {
    const agent = await createLocalAgent(svc.ctx.db, systemClock, { name: "bench-agent" });
    const log = new MemoryReportLog();
    connectRealtimeSources(svc.ctx, svc.delivery, { reports: log });
    const sentAt = new Map<number, number>();
    const append = () => {
      const [r] = log.append([{ account: agent.ledgerAccount, kind: "fill", orderId: "o", marketId: "1", status: "filled", size: 10_000n }]);
      sentAt.set(r.seq, performance.now());
    };

    for (const transport of ["ws", "sse"] as const) {
      const latencies: number[] = [];
      let received = 0;
      let resolveAll!: () => void;
      const all = new Promise<void>((r) => (resolveAll = r));
      const onReport = (seq: number) => {
        latencies.push(performance.now() - sentAt.get(seq)!);
        if (++received === CLIENTS * REPORTS) resolveAll();
      };
      const closers: (() => void)[] = [];
      for (let i = 0; i < CLIENTS; i++) {
        if (transport === "ws") {
          const c = await openWs(`${svc.baseUrl.replace(/^http/, "ws")}/ws`, { authorization: `Bearer ${agent.apiKey}` });
          c.ws.on("message", (d) => {
            const m = JSON.parse(d.toString()) as { type: string; seq: number };
            if (m.type === "execution:report") onReport(m.seq);
          });
          c.send({ type: "subscribe", channel: "execution" });
          await c.messages.waitFor((m) => m.type === "subscribed");
          closers.push(c.close);
        } else {
          const s = await openSse(`${svc.baseUrl}/events/stream`, { authorization: `Bearer ${agent.apiKey}` });
          await s.events.waitFor((e) => e.event === "ready");
          const push = s.events.push.bind(s.events);
          s.events.push = (e) => (e.event === "execution:report" ? onReport(e.data.seq as number) : push(e));
          closers.push(s.close);
        }
      }
      await new Promise((r) => setTimeout(r, 50));
      const t0 = performance.now();
      for (let i = 0; i < REPORTS; i++) {
        append();
        if (i % 50 === 49) await new Promise((r) => setImmediate(r));
      }
      await all;
      const ms = performance.now() - t0;
      closers.forEach((c) => c());
      console.log(
        JSON.stringify({
          bench: `realtime-${transport}`,
          clients: CLIENTS,
          reports: REPORTS,
          deliveries: CLIENTS * REPORTS,
          ms: Math.round(ms),
          perSec: Math.round((CLIENTS * REPORTS) / (ms / 1000)),
          p50Ms: pct(latencies, 50),
          p99Ms: pct(latencies, 99),
          note: `one agent's ${CLIENTS} streams (REALTIME_MAX_STREAMS_PER_AGENT raised for the bench); product default unchanged`,
        }),
      );
    }

    let got = 0;
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    const rx = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(204).end();
        if (++got === DELIVERIES) done();
      });
    });
    await new Promise<void>((r) => rx.listen(0, "127.0.0.1", () => r()));
    const { sub } = await createSubscription(
      svc.ctx.db,
      {
        agentId: agent.agentId,
        account: agent.ledgerAccount,
        url: `http://127.0.0.1:${(rx.address() as AddressInfo).port}/h`,
        eventTypes: ["webhook.test"],
        description: "",
      },
      Date.now(),
    );
    for (let i = 0; i < DELIVERIES; i++) await enqueueDelivery(svc.ctx.db, sub.id, "webhook.test", { i }, Date.now());
    const t0 = performance.now();
    await svc.delivery.webhooks.runDue();
    await finished;
    const ms = performance.now() - t0;
    console.log(JSON.stringify({ bench: "webhooks", deliveries: DELIVERIES, ms: Math.round(ms), perSec: Math.round(DELIVERIES / (ms / 1000)) }));
    rx.close();
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
