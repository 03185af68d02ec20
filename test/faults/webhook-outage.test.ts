/**
 * Fault: a webhook receiver down for hours, with service restarts meanwhile (issue 19). Deliveries are queued for one
 * subscription; the receiver refuses connections; the worker runs on an injectable clock moved along the Standard
 * Webhooks schedule (5 s, 5 min, 30 min, 2 h, ...), and is replaced by a new worker (a restart: all state is in the
 * database) between passes. Only the subscription's oldest delivery is tried while it fails, on the schedule; once the
 * receiver is back, every delivery arrives once, in enqueue order, with a valid signature.
 */
import { strict as assert } from "node:assert";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { createLocalAgent } from "../../api/domain/auth/local-agents";
import { STANDARD_RETRY_SCHEDULE_MS } from "../../api/domain/webhooks/schedule";
import { createSubscription, enqueueDelivery } from "../../api/domain/webhooks/store";
import { WebhookWorker } from "../../api/transports/webhooks/worker";
import { manualClock } from "../../relayer/clock";
import type { Database } from "../../relayer/db/client";
import { openTestDatabase } from "../support/db";

const EVENTS = 12;
const HOUR = 3_600_000;

describe("fault: a webhook receiver down for hours, with restarts", () => {
  let db: Database;
  let receiver: Server | null = null;
  const got: { headers: IncomingHttpHeaders; body: string; at: number }[] = [];
  const clock = manualClock(1_800_000_000_000);
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      receiver = createServer((req, res) => {
        let body = "";
        req.on("data", (c) => (body += c));
        req.on("end", () => {
          got.push({ headers: req.headers, body, at: clock.now() });
          res.writeHead(204).end();
        });
      });
      receiver.listen(port, "127.0.0.1", () => {
        port = (receiver!.address() as AddressInfo).port;
        resolve();
      });
    });
  const close = () => new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));

  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await close();
    await db.close();
  });

  it("retries the oldest delivery on the schedule, then delivers the backlog once, in order, signed", async () => {
    await listen(); // learn a port, then take the receiver down
    await close();
    const agent = await createLocalAgent(db, clock, { name: "hook-outage" });
    const { sub, secret } = await createSubscription(
      db,
      { agentId: agent.agentId, account: agent.agentId, url: `http://127.0.0.1:${port}/hook`, eventTypes: ["execution:report"], description: "fault" },
      clock.now(),
    );
    const ids: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      ids.push(await enqueueDelivery(db, sub.id, "execution:report", { n: i }, clock.now()));
      clock.advance(1); // some share a millisecond in real life; the order must not depend on it
    }
    const worker = () => new WebhookWorker({ db, clock, allowPrivate: true, random: () => 0.5, timeoutMs: 2_000 });
    // Down for hours: each pass is a fresh worker (a restarted service), the clock jumps to the next retry.
    let restarts = 0;
    let attemptsWhileDown = 0;
    for (const delay of STANDARD_RETRY_SCHEDULE_MS.slice(0, 4)) {
      attemptsWhileDown += await worker().runDue();
      restarts++;
      clock.advance(delay);
    }
    const downForMs = STANDARD_RETRY_SCHEDULE_MS.slice(0, 4).reduce((a, b) => a + b, 0);
    const attempts = await db.query<{ delivery_id: string; attempt: number }>(`SELECT delivery_id, attempt FROM api_webhook_attempts ORDER BY at, attempt`);
    assert.ok(
      attempts.every((a) => a.delivery_id === ids[0]),
      "only the oldest delivery is tried while the receiver is down",
    );
    assert.equal(attemptsWhileDown, 4, "one attempt per scheduled retry");

    // The receiver comes back; the next due pass (after another restart) delivers everything.
    await listen();
    const delivered = await worker().runDue();
    restarts++;
    await close();
    assert.equal(delivered, EVENTS);
    const verifier = new Webhook(secret);
    const order = got.map((g) => {
      const headers = {
        "webhook-id": String(g.headers["webhook-id"]),
        "webhook-timestamp": String(g.headers["webhook-timestamp"]),
        "webhook-signature": String(g.headers["webhook-signature"]),
      };
      // standardwebhooks checks the timestamp against the wall clock; the service clock is the test's.
      const realNow = Date.now;
      Date.now = () => g.at;
      try {
        return { id: headers["webhook-id"], n: (verifier.verify(g.body, headers) as { data: { n: number } }).data.n };
      } finally {
        Date.now = realNow;
      }
    });
    const ns = order.map((o) => o.n);
    const figures = {
      fault: "webhook-receiver-down",
      downHours: Math.round((downForMs / HOUR) * 10) / 10,
      restarts,
      attemptsWhileDown,
      delivered: got.length,
      inOrder: ns.every((n, i) => n === i),
      signaturesValid: order.length,
      lost: EVENTS - new Set(ns).size,
      doubled: ns.length - new Set(ns).size,
    };
    console.log(JSON.stringify(figures));
    assert.deepEqual(
      ns,
      Array.from({ length: EVENTS }, (_, i) => i),
    );
    assert.deepEqual(
      order.map((o) => o.id),
      ids,
      "webhook-id stable per delivery",
    );
    assert.equal(figures.lost, 0);
    assert.equal(figures.doubled, 0);
  });
});
