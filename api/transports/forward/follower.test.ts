/**
 * A follower forwards to the leader (docs/scale-out.md), over real HTTP on one Postgres: the test service holds the
 * exchange's advisory lock and advertises its URL as a leader does, and a follower finds it through pg_locks. An order
 * placed through the follower reaches the execution stream of a WebSocket also opened through it; the leader's
 * refusal of an upgrade comes back as it was; with no leader the upgrade is refused 503 with Retry-After; closing the
 * follower ends the tunnels it holds. Needs DATABASE_URL (the lock is Postgres's).
 */
import { strict as assert } from "node:assert";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import WebSocket from "ws";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { API_BASE_PATH } from "../../platform/versioning/versions";
import { type LeaderLock, openLeaderLock } from "../../platform/leader/leader-lock";
import { apiClient, type Json, startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { openWs } from "../realtime/test-clients";
import { type Follower, startFollower } from "./follower";

const DATABASE_URL = process.env.DATABASE_URL;

/** The answer of an upgrade that was refused: status, headers and body, as the `ws` client sees them. */
function refusedUpgrade(url: string, headers: Record<string, string> = {}): Promise<{ status: number; retryAfter: string | undefined; body: Json }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once("open", () => reject(new Error("the upgrade was accepted")));
    ws.once("error", () => {}); // the refusal below is the answer
    ws.once("unexpected-response", (_req, res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"] as string | undefined, body: JSON.parse(text) }));
    });
  });
}

describe("a follower forwards HTTP and WebSocket upgrades to the leader", { skip: !DATABASE_URL && "needs DATABASE_URL" }, () => {
  let t: TestService;
  let leaderLock: LeaderLock;
  const locks: LeaderLock[] = [];
  let follower: Follower;
  let alice: LocalAgent;
  let market = "";
  const followerUrl = (scheme: "http" | "ws") => `${scheme}://127.0.0.1:${follower.port}${API_BASE_PATH}`;

  before(async () => {
    t = await startTestService();
    // What a leader does once it holds the lock and listens (api/leadership.ts): advertise its URL.
    leaderLock = openLeaderLock(DATABASE_URL!, t.schema);
    assert.equal(await leaderLock.tryAcquire(), true);
    await leaderLock.advertise(new URL(t.svc.baseUrl).origin, Date.now());
    const lock = openLeaderLock(DATABASE_URL!, t.schema);
    locks.push(lock);
    follower = await startFollower({ host: "127.0.0.1", port: 0, lock, nowMs: Date.now });
    alice = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "follower-ws" });
    market = ((await apiClient(t)("GET", "/discover/markets?pricingModel=ORDERBOOK")).json.markets as Json[])[0]!.address;
  });
  after(async () => {
    await follower?.close();
    for (const l of [...locks, leaderLock]) await l?.close();
    if (t) await stopTestService(t);
  });

  it("an order placed through the follower reaches the execution stream of a WebSocket opened through it", async () => {
    const forwardedBefore = follower.forwarded();
    const c = await openWs(`${followerUrl("ws")}/ws`, { authorization: `Bearer ${alice.apiKey}` });
    await c.messages.waitFor((m) => m.type === "authenticated");
    c.send({ type: "subscribe", channel: "execution", id: "e1" });
    await c.messages.waitFor((m) => m.type === "subscribed" && m.id === "e1");
    const clientOrderId = `via-follower-${randomUUID().slice(0, 8)}`;
    const placed = await fetch(`${followerUrl("http")}/orderbook/place-order`, {
      method: "POST",
      headers: { authorization: `Bearer ${alice.apiKey}`, "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ market, outcome: 0, side: "buy", priceBps: "1000", size: "1000000", timeInForce: "GTC", clientOrderId }),
    });
    assert.equal(placed.status, 200, await placed.clone().text());
    const [report] = await c.messages.waitFor((m) => m.type === "execution:report" && (m.data as Json).clientOrderId === clientOrderId);
    assert.equal((report!.data as Json).orderId, ((await placed.json()) as Json).orders[0].orderId);
    // The ping round trip crosses the tunnel both ways.
    c.send({ type: "ping", id: "p1" });
    await c.messages.waitFor((m) => m.type === "pong" && m.id === "p1");
    assert.equal(follower.forwarded() - forwardedBefore, 2, "the upgrade and the order");
    c.close();
  });

  it("the leader's refusal of an upgrade comes back through the follower as it was", async () => {
    const refused = await refusedUpgrade(`${followerUrl("ws")}/ws?apiKey=${alice.apiKey}`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, "INVALID_PAYLOAD");
    assert.equal(refused.body.field, "apiKey");
  });

  it("with no leader an upgrade is refused 503 with Retry-After: 1", async () => {
    const lock = openLeaderLock(DATABASE_URL!, `${t.schema}_none`); // a schema no instance leads
    locks.push(lock);
    const orphan = await startFollower({ host: "127.0.0.1", port: 0, lock, nowMs: Date.now });
    try {
      const refused = await refusedUpgrade(`ws://127.0.0.1:${orphan.port}${API_BASE_PATH}/ws`, { authorization: `Bearer ${alice.apiKey}` });
      assert.equal(refused.status, 503);
      assert.equal(refused.retryAfter, "1");
      assert.equal(refused.body.code, "SERVICE_UNAVAILABLE");
      assert.equal(orphan.forwarded(), 0);
    } finally {
      await orphan.close();
    }
  });

  it("closing the follower ends the tunnels it holds", async () => {
    const c = await openWs(`${followerUrl("ws")}/ws`, { authorization: `Bearer ${alice.apiKey}` });
    await c.messages.waitFor((m) => m.type === "authenticated");
    await follower.close();
    const closed = await c.closed;
    assert.ok(closed.code === 1006 || closed.code === 1001, `closed with ${closed.code}`);
  });
});
