/**
 * Two API instances on one Postgres schema and one Redis: a report committed on the instance that holds the source
 * reaches an SSE client of the other instance (Redis pub/sub), which replays from the shared source; and the two
 * webhook workers draining one queue together send every message exactly once (FOR UPDATE SKIP LOCKED).
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { loadConfig } from "../../config";
import { startService, type RunningService } from "../../service";
import { systemClock } from "../../../relayer/clock";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { connectRealtimeSources } from "../delivery";
import { MemoryReportLog } from "./memory-sources";
import { openSse } from "./test-clients";
import { enqueueDelivery } from "../../domain/webhooks/store";
import { dropServiceSchema } from "../../../test/support/db";

// Postgres and Redis run locally here (house rules); both instances must share them.
const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

describe("two API instances: Redis fan-out and a shared webhook queue", () => {
  const schema = `t_rtmi_${randomUUID().slice(0, 8)}`;
  const prefix = `${schema}:`;
  const dirs: string[] = [];
  let a: RunningService;
  let b: RunningService;
  let agent: LocalAgent;
  const log = new MemoryReportLog();

  const start = async () => {
    const dir = mkdtempSync(join(tmpdir(), "pm-rtmi-"));
    dirs.push(dir);
    return startService(
      loadConfig({
        PORT: "0",
        DATA_DIR: dir,
        LOG_LEVEL: "silent",
        DATABASE_URL,
        DATABASE_SCHEMA: schema,
        REDIS_URL,
        WEBHOOKS_ALLOW_PRIVATE: "true",
        WEBHOOKS_POLL_MS: "3600000",
      }),
      { clock: systemClock, redisPrefix: prefix },
    );
  };

  before(async () => {
    a = await start();
    b = await start();
    agent = await createLocalAgent(a.ctx.db, systemClock, { name: "mi-agent" });
    connectRealtimeSources(a.ctx, a.delivery, { reports: log }); // the instance with the exchange
    connectRealtimeSources(b.ctx, b.delivery, { reports: log, live: false }); // reads the shared store only
    await a.delivery.webhooks.stop();
    await b.delivery.webhooks.stop();
  });
  after(async () => {
    await a.close();
    await b.close();
    await dropServiceSchema(schema, DATABASE_URL);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("a report published on instance A reaches an SSE client of instance B, after B's replay, in order", async () => {
    log.append([{ account: agent.ledgerAccount, kind: "new", orderId: "o1", marketId: "1", status: "open" }]);
    const s = await openSse(`${b.baseUrl}/events/stream?fromSeq=1`, { authorization: `Bearer ${agent.apiKey}` });
    await s.events.waitFor((e) => e.event === "execution:report", 1);
    for (let i = 0; i < 10; i++) log.append([{ account: agent.ledgerAccount, kind: "fill", orderId: "o1", marketId: "1", status: "partially_filled" }]);
    const got = await s.events.waitFor((e) => e.event === "execution:report", 11);
    assert.deepEqual(
      got.map((e) => e.data.seq),
      Array.from({ length: 11 }, (_, i) => i + 1),
    );
    assert.equal(b.delivery.hub.bus.kind, "redis");
    s.close();
  });

  it("both instances' workers drain one queue and send each message exactly once", async () => {
    const got: string[] = [];
    const server: Server = createServer((req, res) => {
      got.push(String(req.headers["webhook-id"]));
      req.resume();
      req.on("end", () => setTimeout(() => res.writeHead(204).end(), 5));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    try {
      const res = await fetch(`${a.baseUrl}/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${agent.apiKey}`, "content-type": "application/json", "idempotency-key": randomUUID() },
        body: JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/h`, eventTypes: ["webhook.test"] }),
      });
      const sub = (await res.json()) as { id: string };
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) ids.push(await enqueueDelivery(a.ctx.db, sub.id, "webhook.test", { i }, Date.now()));
      const [na, nb] = await Promise.all([a.delivery.webhooks.runDue(), b.delivery.webhooks.runDue()]);
      assert.equal(na + nb, 40);
      assert.deepEqual([...got].sort(), [...ids].sort(), "every message once, none twice");
    } finally {
      server.close();
    }
  });
});
