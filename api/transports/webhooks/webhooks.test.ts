/**
 * Webhooks over real HTTP: subscriptions through the REST operations, deliveries to a real local receiver that
 * verifies every message with standardwebhooks' Webhook.verify, the retry schedule (with jitter bounds), Retry-After,
 * 410 disabling the endpoint, secret rotation with several signatures in the grace period, the delivery log, scope
 * and ownership checks, and the SSRF guard (save-time and connect-time).
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { RunningService } from "../../service";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { manualClock, type Clock } from "../../../relayer/clock";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { connectRealtimeSources } from "../delivery";
import { MemoryReportLog } from "../realtime/memory-sources";
import { WebhookWorker } from "./worker";
import { retryDelay, parseRetryAfter, STANDARD_RETRY_SCHEDULE_MS } from "../../domain/webhooks/schedule";
import { isBlockedAddress } from "../../platform/net/blocked-addresses";
import { checkTargetUrl } from "../../domain/webhooks/address-guard";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Answer = { status: number; headers?: Record<string, string> };

/** A local endpoint: records requests, answers from a script per path (default 200). */
async function receiver(): Promise<{ url: string; got: Received[]; script(path: string, ...a: Answer[]): void; server: Server }> {
  const got: Received[] = [];
  const answers = new Map<string, Answer[]>();
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      got.push({ path: req.url ?? "", headers: req.headers, body });
      const a = answers.get(req.url ?? "")?.shift() ?? { status: 200 };
      res.writeHead(a.status, a.headers ?? {});
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const script = (path: string, ...a: Answer[]) => answers.set(path, [...(answers.get(path) ?? []), ...a]);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got, script, server };
}

const headersOf = (r: Received) => ({
  "webhook-id": String(r.headers["webhook-id"]),
  "webhook-timestamp": String(r.headers["webhook-timestamp"]),
  "webhook-signature": String(r.headers["webhook-signature"]),
});
const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, headersOf(r)) as Json;

describe("webhooks over real HTTP", () => {
  let svc: RunningService;
  let t: TestService<Clock>;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let alice: LocalAgent;
  let reader: LocalAgent;
  const log = new MemoryReportLog();
  // Webhook.verify compares webhook-timestamp with the real clock (+-5 min): start 4 min behind it so a 5 s and a
  // ~5 min retry both stay verifiable.
  const clock = manualClock(Date.now() - 240_000);

  before(async () => {
    t = await startTestService({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_POLL_MS: "3600000" }, { clock });
    svc = t.svc;
    alice = await createLocalAgent(svc.ctx.db, clock, { name: "wh-alice" });
    reader = await createLocalAgent(svc.ctx.db, clock, { name: "wh-reader", tier: "read-only" });
    connectRealtimeSources(svc.ctx, svc.delivery, { reports: log });
    // The tests drive every pass themselves (runDue), so the service's own polling and wake-ups are stopped.
    await svc.delivery.webhooks.stop();
    rx = await receiver();
  });
  after(async () => {
    await stopTestService(t);
    rx.server.close();
  });

  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (method === "POST") headers["idempotency-key"] = randomUUID();
    const res = await fetch(`${svc.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as Json };
  };
  const run = () => svc.delivery.webhooks.runDue();
  const deliveries = async (id: string) => (await call("GET", `/webhooks/${id}/deliveries?limit=100`, alice.apiKey)).json.deliveries as Json[];

  it("create shows a whsec_ secret once; an execution report is delivered signed and verifies", async () => {
    const c = await call("POST", "/webhooks", alice.apiKey, { url: `${rx.url}/hook-a`, description: "fills" });
    assert.equal(c.status, 201);
    assert.match(c.json.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(c.json.eventTypes, ["execution:report"]);
    assert.equal(c.json.account, alice.ledgerAccount);
    const g = await call("GET", `/webhooks/${c.json.id}`, alice.apiKey);
    assert.equal(g.json.secret, undefined, "the secret is never shown again");

    log.append([{ account: alice.ledgerAccount, kind: "fill", orderId: "o1", marketId: "3", status: "filled", size: 2_000_000n }]);
    for (let i = 0; i < 50 && (await deliveries(c.json.id)).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await run();
    const mine = rx.got.filter((r) => r.path === "/hook-a");
    assert.equal(mine.length, 1);
    const msg = verify(c.json.secret, mine[0]);
    assert.equal(msg.type, "execution:report");
    assert.equal(msg.data.seq, 1);
    assert.equal(msg.data.report.size, "2000000");
    assert.equal(mine[0].headers["content-type"], "application/json");
    assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(mine[0].body, headersOf(mine[0])), "a wrong secret fails");
    assert.throws(() => new Webhook(c.json.secret).verify(mine[0].body.replace("filled", "fillex"), headersOf(mine[0])), "a changed body fails");
    const [d] = await deliveries(c.json.id);
    assert.equal(d.status, "succeeded");
    assert.equal(d.id, mine[0].headers["webhook-id"]);
    assert.equal(d.attemptLog[0].responseStatus, 200);
    await call("DELETE", `/webhooks/${c.json.id}`, alice.apiKey);
  });

  it("retries on the Standard Webhooks schedule with jitter, honours Retry-After, keeps the webhook-id, logs every attempt", async () => {
    const c = await call("POST", "/webhooks", alice.apiKey, { url: `${rx.url}/hook-b`, eventTypes: ["webhook.test"] });
    rx.script("/hook-b", { status: 500 }, { status: 503, headers: { "retry-after": "60" } }, { status: 502 }, { status: 204 });
    const t = await call("POST", `/webhooks/${c.json.id}/test`, alice.apiKey);
    assert.equal(t.status, 202);
    const t0 = clock.now();
    await run();
    let [d] = await deliveries(c.json.id);
    assert.equal(d.status, "pending");
    const next1 = Date.parse(d.nextAttemptAt) - t0;
    assert.ok(next1 >= 4500 && next1 <= 5500, `first retry after 5 s +-10 %, got ${next1}`);
    clock.advance(4400);
    assert.equal(await run(), 0, "not due before its time");
    clock.advance(1200);
    await run(); // attempt 2 -> 503 Retry-After: 60, earlier than the schedule's 5 min: the schedule wins
    [d] = await deliveries(c.json.id);
    const after2 = Date.parse(d.attemptLog[1].at);
    const next2 = Date.parse(d.nextAttemptAt) - after2;
    assert.ok(next2 >= 270_000 && next2 <= 330_000, `second retry after 5 min +-10 %, got ${next2}`);
    clock.set(Date.parse(d.nextAttemptAt));
    await run(); // attempt 3 -> 502
    [d] = await deliveries(c.json.id);
    const next3 = Date.parse(d.nextAttemptAt) - Date.parse(d.attemptLog[2].at);
    assert.ok(next3 >= 1_620_000 && next3 <= 1_980_000, `third retry after 30 min +-10 %, got ${next3}`);
    const hits = rx.got.filter((r) => r.path === "/hook-b");
    assert.equal(hits.length, 3);
    assert.equal(new Set(hits.map((h) => h.headers["webhook-id"])).size, 1, "one message id across retries");
    for (const h of hits) assert.equal(verify(c.json.secret, h).type, "webhook.test");
    assert.deepEqual(
      d.attemptLog.map((a: Json) => a.responseStatus),
      [500, 503, 502],
    );
    await call("DELETE", `/webhooks/${c.json.id}`, alice.apiKey);
    clock.set(Date.now() - 240_000);
  });

  it("Retry-After later than the schedule pushes the next attempt", async () => {
    const c = await call("POST", "/webhooks", alice.apiKey, { url: `${rx.url}/hook-ra`, eventTypes: ["webhook.test"] });
    rx.script("/hook-ra", { status: 429, headers: { "retry-after": "90" } });
    await call("POST", `/webhooks/${c.json.id}/test`, alice.apiKey);
    await run();
    const [d] = await deliveries(c.json.id);
    assert.equal(Date.parse(d.nextAttemptAt) - Date.parse(d.attemptLog[0].at), 90_000);
    clock.advance(60_000);
    assert.equal(await run(), 0, "the 5 s schedule step is overridden by Retry-After");
    clock.advance(31_000);
    assert.equal(await run(), 1);
    const hits = rx.got.filter((r) => r.path === "/hook-ra");
    assert.equal(hits.length, 2);
    for (const h of hits) verify(c.json.secret, h);
    assert.equal((await deliveries(c.json.id))[0].status, "succeeded");
    await call("DELETE", `/webhooks/${c.json.id}`, alice.apiKey);
    clock.set(Date.now() - 240_000);
  });

  it("after the last scheduled retry the delivery is failed (8 attempts, all verifiable)", async () => {
    const c = await call("POST", "/webhooks", alice.apiKey, { url: `${rx.url}/hook-c`, eventTypes: ["webhook.test"] });
    for (let i = 0; i < 8; i++) rx.script("/hook-c", { status: 500 });
    const tiny = [10, 10, 10, 10, 10, 10, 10];
    const worker = new WebhookWorker({ db: svc.ctx.db, clock, allowPrivate: true, schedule: tiny });
    await call("POST", `/webhooks/${c.json.id}/test`, alice.apiKey);
    for (let i = 0; i < 8; i++) {
      await worker.runDue();
      clock.advance(20);
    }
    const [d] = await deliveries(c.json.id);
    assert.equal(d.status, "failed");
    assert.equal(d.attempts, 8);
    assert.equal(d.nextAttemptAt, null);
    const hits = rx.got.filter((r) => r.path === "/hook-c");
    assert.equal(hits.length, 8);
    for (const h of hits) verify(c.json.secret, h);
    await call("DELETE", `/webhooks/${c.json.id}`, alice.apiKey);
  });

  it("410 Gone disables the subscription and cancels its pending deliveries; PATCH enabled re-enables it", async () => {
    const c = await call("POST", "/webhooks", alice.apiKey, { url: `${rx.url}/hook-d`, eventTypes: ["webhook.test", "execution:report"] });
    rx.script("/hook-d", { status: 410 });
    await call("POST", `/webhooks/${c.json.id}/test`, alice.apiKey);
    await run();
    const g = await call("GET", `/webhooks/${c.json.id}`, alice.apiKey);
    assert.equal(g.json.status, "disabled");
    assert.match(g.json.disabledReason, /410/);
    const [d] = await deliveries(c.json.id);
    assert.equal(d.status, "failed");
    const again = await call("POST", `/webhooks/${c.json.id}/test`, alice.apiKey);
    assert.equal(again.status, 409);
    log.append([{ account: alice.ledgerAccount, kind: "fill", orderId: "o9", marketId: "3", status: "filled" }]);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await deliveries(c.json.id)).length, 1, "a disabled subscription gets no new deliveries");
    const p = await call("PATCH", `/webhooks/${c.json.id}`, alice.apiKey, { enabled: true });
    assert.equal(p.status, 200);
    assert.equal(p.json.status, "enabled");
    await call("POST", `/webhooks/${c.json.id}/test`, alice.apiKey);
    await run();
    assert.equal(verify(c.json.secret, rx.got.filter((r) => r.path === "/hook-d").at(-1)!).type, "webhook.test");
    await call("DELETE", `/webhooks/${c.json.id}`, alice.apiKey);
  });

  it("rotation: during the grace period deliveries carry both signatures; after it only the new one", async () => {
    const c = await call("POST", "/webhooks", alice.apiKey, { url: `${rx.url}/hook-e`, eventTypes: ["webhook.test"] });
    const old = c.json.secret as string;
    const r = await call("POST", `/webhooks/${c.json.id}/rotate-secret`, alice.apiKey, { graceSeconds: 60 });
    assert.equal(r.status, 200);
    const fresh = r.json.secret as string;
    assert.notEqual(fresh, old);
    assert.equal(r.json.secrets.length, 2);
    await call("POST", `/webhooks/${c.json.id}/test`, alice.apiKey);
    await run();
    let hit = rx.got.filter((x) => x.path === "/hook-e").at(-1)!;
    assert.equal(String(hit.headers["webhook-signature"]).split(" ").length, 2);
    verify(old, hit);
    verify(fresh, hit);
    clock.advance(61_000);
    await call("POST", `/webhooks/${c.json.id}/test`, alice.apiKey);
    await run();
    hit = rx.got.filter((x) => x.path === "/hook-e").at(-1)!;
    assert.equal(String(hit.headers["webhook-signature"]).split(" ").length, 1);
    verify(fresh, hit);
    assert.throws(() => verify(old, hit), "the old secret stops verifying after the grace period");
    await call("DELETE", `/webhooks/${c.json.id}`, alice.apiKey);
    clock.set(Date.now() - 240_000);
  });

  it("scope, ownership and validation: webhooks:manage needed, another agent's webhook is 404, bad input 400", async () => {
    const noScope = await call("POST", "/webhooks", reader.apiKey, { url: `${rx.url}/x` });
    assert.equal(noScope.status, 403);
    assert.deepEqual(noScope.json.missingScopes, ["webhooks:manage"]);
    const c = await call("POST", "/webhooks", alice.apiKey, { url: `${rx.url}/hook-f` });
    const other = await createLocalAgent(svc.ctx.db, clock, { name: "wh-other" });
    assert.equal((await call("GET", `/webhooks/${c.json.id}`, other.apiKey)).status, 404);
    assert.equal((await call("GET", `/webhooks/${c.json.id}/deliveries`, other.apiKey)).status, 404);
    assert.equal((await call("DELETE", `/webhooks/${c.json.id}`, other.apiKey)).status, 404);
    assert.equal((await call("POST", "/webhooks", alice.apiKey, { url: "ftp://example.com/x" })).status, 400);
    assert.equal((await call("POST", "/webhooks", alice.apiKey, { url: `${rx.url}/x`, eventTypes: ["nope"] })).status, 400);
    const list = await call("GET", "/webhooks", alice.apiKey);
    assert.deepEqual(
      list.json.webhooks.map((w: Json) => w.id),
      [c.json.id],
    );
    assert.equal((await call("DELETE", `/webhooks/${c.json.id}`, alice.apiKey)).status, 200);
    assert.equal((await call("GET", `/webhooks/${c.json.id}`, alice.apiKey)).status, 404);
  });
});

describe("webhook SSRF guard", () => {
  it("classifies private, loopback, link-local, CGNAT, mapped and public addresses", () => {
    for (const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "224.0.0.1",
      "::",
    ])
      assert.ok(isBlockedAddress(ip), ip);
    for (const ip of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) assert.ok(!isBlockedAddress(ip), ip);
  });

  it("refuses private targets at save time (DNS resolved) unless WEBHOOKS_ALLOW_PRIVATE", async () => {
    for (const u of [
      "http://127.0.0.1:9/x",
      "http://localhost/x",
      "http://[::1]/x",
      "http://169.254.169.254/latest",
      "http://10.0.0.5/",
      "https://user:pw@example.com/",
    ]) {
      await assert.rejects(checkTargetUrl(u, false), (e: Json) => e.code === "INVALID_PAYLOAD" && e.extensions.field === "url", u);
    }
    await checkTargetUrl("http://127.0.0.1:9/x", true);
    await checkTargetUrl("https://8.8.8.8/hook", false);
  });

  it("over REST the refusal is a 400 problem, and at connect time a stored private target is blocked (DNS rebinding)", async () => {
    const clock = manualClock(Date.now());
    const tsvc = await startTestService({ WEBHOOKS_POLL_MS: "3600000" }, { clock });
    const svc = tsvc.svc;
    const rx = await receiver();
    try {
      const a = await createLocalAgent(svc.ctx.db, clock, { name: "ssrf" });
      const res = await fetch(`${svc.baseUrl}/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${a.apiKey}`, "content-type": "application/json", "idempotency-key": randomUUID() },
        body: JSON.stringify({ url: `${rx.url}/x` }),
      });
      assert.equal(res.status, 400);
      const p = (await res.json()) as Json;
      assert.equal(p.code, "INVALID_PAYLOAD");
      assert.equal(p.reason, "private_address");
      // A target that passed the check earlier (or whose name now resolves privately) is refused by the socket lookup.
      await svc.ctx.db.query(
        `INSERT INTO api_webhook_subscriptions (id, agent_id, account, url, event_types, secrets, created_at, updated_at) VALUES ('wh_000000000000000000000001', $1, $2, $3, '["webhook.test"]', $4::text::jsonb, 0, 0)`,
        [
          a.agentId,
          a.ledgerAccount,
          `http://localhost:${new URL(rx.url).port}/x`,
          JSON.stringify([{ secret: `whsec_${Buffer.alloc(32, 1).toString("base64")}`, createdAt: 0, expiresAt: null }]),
        ],
      );
      const t = await fetch(`${svc.baseUrl}/webhooks/wh_000000000000000000000001/test`, {
        method: "POST",
        headers: { authorization: `Bearer ${a.apiKey}`, "idempotency-key": randomUUID() },
      });
      assert.equal(t.status, 202);
      await svc.delivery.webhooks.runDue();
      assert.equal(rx.got.length, 0, "nothing reached the private address");
      const [row] = await svc.ctx.db.query<{ last_error: string; status: string }>(
        `SELECT last_error, status FROM api_webhook_deliveries WHERE subscription_id = 'wh_000000000000000000000001'`,
      );
      assert.equal(row.status, "pending");
      assert.match(row.last_error, /EBLOCKEDADDRESS/);
    } finally {
      await stopTestService(tsvc);
      rx.server.close();
    }
  });
});

describe("retry schedule", () => {
  it("is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with +-10 % jitter, then null", () => {
    assert.deepEqual([...STANDARD_RETRY_SCHEDULE_MS], [5e3, 3e5, 1.8e6, 7.2e6, 1.8e7, 3.6e7, 3.6e7]);
    STANDARD_RETRY_SCHEDULE_MS.forEach((ms, i) => {
      assert.equal(
        retryDelay(i + 1, undefined, () => 0),
        Math.round(ms * 0.9),
      );
      assert.equal(
        retryDelay(i + 1, undefined, () => 1),
        Math.round(ms * 1.1),
      );
    });
    assert.equal(retryDelay(8), null);
  });
  it("parses Retry-After seconds and HTTP dates, capped at a day", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    assert.equal(parseRetryAfter("120", now), 120_000);
    assert.equal(parseRetryAfter("Thu, 01 Jan 2026 00:01:00 GMT", now), 60_000);
    assert.equal(parseRetryAfter("9999999", now), 86_400_000);
    assert.equal(parseRetryAfter("soon", now), null);
    assert.equal(parseRetryAfter(null, now), null);
  });
});
