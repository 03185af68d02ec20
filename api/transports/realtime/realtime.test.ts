/**
 * Realtime over real HTTP against startService: SSE and WebSocket streams of execution reports from a real in-memory
 * report log (replay + live, resume without gap or duplicate, gap repair of a lost notification), market channels
 * (snapshot then consecutive deltas, fresh snapshot after a gap), heartbeats at a short interval, auth refusals,
 * the discovery catalogs, and Redis fan-out between two hubs.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { randomUUID } from "node:crypto";
import type { RunningService } from "../../service";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { systemClock, type Clock } from "../../../relayer/clock";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { connectRealtimeSources } from "../delivery";
import { MemoryBooks, MemoryReportLog } from "./memory-sources";
import { openSse, openWs, type SseEvent, type WsMessage } from "./test-clients";
import { EventHub, RedisBus } from "./hub";
import { ExecutionFeed, type StreamMessage } from "./streams";
import { Collector } from "./test-clients";

const HEARTBEAT_MS = 150;

describe("realtime streams over real HTTP", () => {
  let svc: RunningService;
  let t: TestService<Clock>;
  let alice: LocalAgent;
  let bob: LocalAgent;
  const log = new MemoryReportLog();
  const books = new MemoryBooks();
  const report = (account: string, n = 1, opts: { silent?: boolean } = {}) =>
    log.append(
      Array.from({ length: n }, (_, i) => ({ account, kind: "fill", orderId: `o_${i}`, marketId: "1", status: "filled", size: 5_000_000n, priceBps: 6200 })),
      opts,
    );

  before(async () => {
    t = await startTestService({ REALTIME_HEARTBEAT_MS: String(HEARTBEAT_MS), REALTIME_WS_AUTH_TIMEOUT_MS: "400" }, { clock: systemClock });
    svc = t.svc;
    alice = await createLocalAgent(svc.ctx.db, systemClock, { name: "rt-alice" });
    bob = await createLocalAgent(svc.ctx.db, systemClock, { name: "rt-bob", tier: "read-only" });
    connectRealtimeSources(svc.ctx, svc.delivery, { reports: log, market: books });
    books.open("1");
  });
  after(async () => {
    await stopTestService(t);
  });

  const sseUrl = (q = "") => `${svc.baseUrl}/events/stream${q}`;
  const wsUrl = () => `${svc.baseUrl.replace(/^http/, "ws")}/ws`;
  const reportsOf = (e: SseEvent) => e.event === "execution:report";
  const seqsOf = (events: SseEvent[]) => events.filter(reportsOf).map((e) => e.data.seq as number);
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

  it("SSE: replay from fromSeq, then live, consecutive seqs with id: = seq; Last-Event-ID resumes with no gap and no duplicate", async () => {
    report(alice.ledgerAccount, 3);
    report(bob.ledgerAccount, 2); // another account's reports never reach alice
    const s1 = await openSse(sseUrl("?fromSeq=1"), { authorization: `Bearer ${alice.apiKey}` });
    assert.equal(s1.status, 200);
    await s1.events.waitFor(reportsOf, 3);
    report(alice.ledgerAccount, 2);
    const got1 = await s1.events.waitFor(reportsOf, 5);
    assert.deepEqual(
      got1.map((e) => e.data.seq),
      range(1, 5),
    );
    assert.deepEqual(
      got1.map((e) => e.id),
      range(1, 5).map(String),
    );
    const first = got1[0].data as unknown as StreamMessage & { data: Record<string, unknown> };
    assert.equal(first.channel, "execution");
    assert.equal(first.data.account, alice.ledgerAccount);
    assert.equal(first.data.size, "5000000", "bigint fields arrive as integer strings");
    s1.close();

    report(alice.ledgerAccount, 2); // 6, 7 while disconnected
    const s2 = await openSse(sseUrl("?fromSeq=1"), { authorization: `Bearer ${alice.apiKey}`, "last-event-id": "5" });
    await s2.events.waitFor(reportsOf, 2);
    report(alice.ledgerAccount, 1); // 8 live
    await s2.events.waitFor(reportsOf, 3);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(seqsOf(s2.events.items), [6, 7, 8], "Last-Event-ID wins over fromSeq; nothing repeated, nothing missing");
    s2.close();
  });

  it("SSE: a lost live notification is repaired from reportsOf before later reports", async () => {
    const s = await openSse(sseUrl(), { "x-api-key": alice.apiKey });
    await s.events.waitFor((e) => e.event === "ready");
    const start = (await log.reportsOf(alice.ledgerAccount, 1, 1000)).length;
    report(alice.ledgerAccount, 1); // live only from here: sets the start
    await s.events.waitFor(reportsOf, 1);
    report(alice.ledgerAccount, 2, { silent: true }); // committed, never published
    report(alice.ledgerAccount, 1);
    const got = await s.events.waitFor(reportsOf, 4);
    assert.deepEqual(
      got.map((e) => e.data.seq),
      range(start + 1, start + 4),
    );
    s.close();
  });

  it("SSE: heartbeats arrive at the configured interval; a missing or bad key is a 401 problem; a bad fromSeq a 400", async () => {
    const s = await openSse(sseUrl("?execution=false"), { authorization: `Bearer ${alice.apiKey}` });
    const ready = await s.events.waitFor((e) => e.event === "ready");
    assert.equal(ready[0].data.heartbeatMs, HEARTBEAT_MS);
    const t0 = Date.now();
    await s.events.waitFor((e) => e.event === "heartbeat", 2, 2000);
    assert.ok(Date.now() - t0 >= HEARTBEAT_MS, "two heartbeats take at least one interval");
    s.close();
    const none = await openSse(sseUrl(), {});
    assert.equal(none.status, 401);
    assert.equal(JSON.parse(none.body!).code, "AUTH_REQUIRED");
    const bad = await openSse(sseUrl(), { authorization: "Bearer svc_nope" });
    assert.equal(bad.status, 401);
    const badSeq = await openSse(sseUrl("?fromSeq=abc"), { authorization: `Bearer ${alice.apiKey}` });
    assert.equal(badSeq.status, 400);
    assert.equal(JSON.parse(badSeq.body!).code, "INVALID_PAYLOAD");
  });

  it("SSE: market channel sends the snapshot, then deltas, trades and price frames with consecutive market seqs", async () => {
    books.setLevel("1", "bid", 6100, 10n);
    books.setLevel("1", "ask", 6300, 7n);
    const s = await openSse(sseUrl("?execution=false&markets=1"), { authorization: `Bearer ${alice.apiKey}` });
    const [snap] = await s.events.waitFor((e) => e.event === "book:snapshot");
    const snapSeq = snap.data.seq as number;
    assert.deepEqual((snap.data.data as { bids: unknown }).bids, [{ priceBps: "6100", size: "10" }]);
    books.setLevel("1", "bid", 6100, 0n);
    books.trade("1", { tradeId: "t1", outcome: 0, priceBps: 6300, size: 7n, takerSide: "buy" });
    const live = await s.events.waitFor((e) => e.data.channel === "market:1" && e.event !== "book:snapshot", 3);
    assert.deepEqual(
      live.map((e) => e.event),
      ["book:delta", "market:trade", "market:price"],
    );
    assert.deepEqual(
      live.map((e) => e.data.seq),
      [snapSeq + 1, snapSeq + 2, snapSeq + 3],
    );
    assert.ok(
      live.every((e) => e.id === null),
      "market events do not move Last-Event-ID",
    );
    s.close();
  });

  it("WebSocket: header auth, execution replay from fromSeq then live, resubscribe from last+1, consecutive seqs", async () => {
    const c = await openWs(wsUrl(), { authorization: `Bearer ${bob.apiKey}` });
    await c.messages.waitFor((m) => m.type === "authenticated");
    assert.equal(c.messages.items[0].type, "authenticated", "a header-authenticated socket gets no hello");
    const have = (await log.reportsOf(bob.ledgerAccount, 1, 1000)).length;
    c.send({ type: "subscribe", channel: "execution", fromSeq: 1, id: "s1" });
    const isReport = (m: WsMessage) => m.type === "execution:report";
    await c.messages.waitFor(isReport, have);
    report(bob.ledgerAccount, 2);
    const got = await c.messages.waitFor(isReport, have + 2);
    assert.deepEqual(
      got.map((m) => m.seq),
      range(1, have + 2),
    );
    const subscribedAt = c.messages.items.findIndex((m) => m.type === "subscribed");
    assert.ok(subscribedAt >= 0 && subscribedAt < c.messages.items.findIndex(isReport), "subscribed comes before the first report");
    c.close();
    await c.closed;

    report(bob.ledgerAccount, 3); // missed while away
    const c2 = await openWs(wsUrl());
    await c2.messages.waitFor((m) => m.type === "hello");
    c2.send({ type: "subscribe", channel: "execution" });
    const [err] = await c2.messages.waitFor((m) => m.type === "error");
    assert.equal(err.code, "AUTH_REQUIRED");
    c2.send({ type: "auth", apiKey: bob.apiKey });
    const [auth] = await c2.messages.waitFor((m) => m.type === "authenticated");
    assert.equal(auth.account, bob.ledgerAccount);
    c2.send({ type: "subscribe", channel: "execution", fromSeq: have + 3 });
    await c2.messages.waitFor(isReport, 3);
    report(bob.ledgerAccount, 1);
    await c2.messages.waitFor(isReport, 4);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(
      c2.messages.items.filter(isReport).map((m) => m.seq),
      range(have + 3, have + 6),
    );
    c2.send({ type: "unsubscribe", channel: "execution" });
    await c2.messages.waitFor((m) => m.type === "unsubscribed");
    report(bob.ledgerAccount, 1);
    c2.send({ type: "ping", id: 7 });
    await c2.messages.waitFor((m) => m.type === "pong" && m.id === 7);
    assert.equal(c2.messages.items.filter(isReport).length, 4, "no report after unsubscribe");
    c2.close();
  });

  it("WebSocket: heartbeats at the interval; market snapshot, consecutive deltas, and a fresh snapshot after a gap", async () => {
    const c = await openWs(wsUrl(), { "x-api-key": alice.apiKey });
    await c.messages.waitFor((m) => m.type === "heartbeat", 2, 2000);
    c.send({ type: "subscribe", channel: "market", marketId: "1" });
    const [snap] = await c.messages.waitFor((m) => m.type === "book:snapshot");
    const s0 = snap.seq as number;
    books.setLevel("1", "bid", 6000, 3n);
    books.setLevel("1", "bid", 6000, 4n);
    const deltas = await c.messages.waitFor((m) => m.type === "book:delta", 2);
    assert.deepEqual(
      deltas.map((m) => m.seq),
      [s0 + 1, s0 + 2],
    );
    books.setLevel("1", "ask", 6400, 9n, { silent: true }); // lost
    books.setLevel("1", "ask", 6500, 1n);
    const snaps = await c.messages.waitFor((m) => m.type === "book:snapshot", 2);
    assert.equal(snaps[1].seq, s0 + 4, "the gap is closed by a new snapshot at the latest seq");
    const asks = (snaps[1].data as { asks: { priceBps: string; size: string }[] }).asks;
    assert.deepEqual(
      asks.filter((l) => l.priceBps !== "6300"),
      [
        { priceBps: "6400", size: "9" },
        { priceBps: "6500", size: "1" },
      ],
      "the snapshot holds the lost level",
    );
    c.send({ type: "subscribe", channel: "market", marketId: "999" });
    const [nf] = await c.messages.waitFor((m) => m.type === "error" && m.code === "MARKET_NOT_FOUND");
    assert.ok(nf);
    c.close();
  });

  it("WebSocket: no auth message within the timeout closes with 4401; a bad header key is refused at upgrade; key in URL refused", async () => {
    const c = await openWs(wsUrl());
    const closed = await c.closed;
    assert.equal(closed.code, 4401);
    await assert.rejects(openWs(wsUrl(), { authorization: "Bearer svc_wrong" }), (e: Error & { statusCode?: number }) => e.statusCode === 401);
    await assert.rejects(openWs(`${wsUrl()}?apiKey=${alice.apiKey}`), (e: Error & { statusCode?: number }) => e.statusCode === 400);
  });

  it("catalogs list every event kind, subscription message, heartbeat and the gap-repair protocol", async () => {
    const ev = (await (await fetch(`${svc.baseUrl}/events/discovery`)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.deepEqual(
      ev.eventKinds.map((k: { type: string }) => k.type),
      ["execution:report", "book:snapshot", "book:delta", "market:trade", "market:price", "market:listed"],
    );
    assert.equal(ev.heartbeat.intervalMs, HEARTBEAT_MS);
    assert.equal(ev.transports.websocket.url, wsUrl());
    assert.match(ev.reconnect.onGap, /POST \/orderbook\/events/);
    const md = (await (await fetch(`${svc.baseUrl}/market-data/discovery`)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.equal(md.subscribe.websocket.channel, "market");
    const wh = (await (await fetch(`${svc.baseUrl}/webhooks/discovery`)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.deepEqual(wh.retries.scheduleSeconds, [0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
    const caps = svc.registry.operations.filter((o) => o.path.startsWith("/events") || o.path.startsWith("/market-data"));
    assert.ok(
      caps.every((o) => o.method === "GET"),
      "streams are not registry (MCP) operations",
    );
  });
});

// Redis runs on 127.0.0.1:6379 here (house rules); REDIS_URL points elsewhere.
describe("Redis fan-out", () => {
  const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  it("a report published on one hub reaches subscribers of another hub, in order, with replay on the reader side", async () => {
    const prefix = `t_rt_${randomUUID().slice(0, 8)}:`;
    const a = new EventHub(await RedisBus.connect(url, prefix));
    const b = new EventHub(await RedisBus.connect(url, prefix));
    const other = new EventHub(await RedisBus.connect(url, `${prefix}other:`));
    try {
      const log = new MemoryReportLog();
      a.attachReports(log); // the instance with the exchange
      b.attachReports(log, { live: false }); // another instance: reads the shared log, live events over Redis
      const acct = "0x00000000000000000000000000000000000000aa";
      log.append([{ account: acct, kind: "fill", orderId: "o1", marketId: "1", status: "filled" }]);
      const got = new Collector<StreamMessage>();
      const strayOther = new Collector<unknown>();
      other.subscribe(`execution:${acct}`, (e) => strayOther.push(e));
      const feed = new ExecutionFeed(b, acct, 1, (m) => got.push(m));
      await got.waitFor(() => true, 1);
      for (let i = 0; i < 20; i++) log.append([{ account: acct, kind: "fill", orderId: `o${i + 2}`, marketId: "1", status: "filled" }]);
      const all = await got.waitFor(() => true, 21);
      assert.deepEqual(
        all.map((m) => m.seq),
        Array.from({ length: 21 }, (_, i) => i + 1),
      );
      assert.equal(a.bus.kind, "redis");
      assert.equal(strayOther.items.length, 0, "another prefix (deployment) hears nothing");
      feed.close();
    } finally {
      await Promise.all([a.close(), b.close(), other.close()]);
    }
  });
});

describe("stream limits", () => {
  it("streams per agent are capped (SSE 429, WebSocket error + close 4429) and freed on close; the WS upgrade pays the per-IP window", async () => {
    const tsvc = await startTestService({ RATE_LIMIT_IP_PER_MINUTE: "6", REALTIME_MAX_STREAMS_PER_AGENT: "2" }, { clock: systemClock });
    const svc = tsvc.svc;
    try {
      const agent = await createLocalAgent(svc.ctx.db, systemClock, { name: "limits" });
      const url = `${svc.baseUrl.replace(/^http/, "ws")}/ws`;
      const auth = { authorization: `Bearer ${agent.apiKey}` };
      const s1 = await openSse(`${svc.baseUrl}/events/stream`, auth); // ip 1
      assert.equal(s1.status, 200);
      const w1 = await openWs(url, auth); // ip 2
      await w1.messages.waitFor((m) => m.type === "authenticated");
      const s2 = await openSse(`${svc.baseUrl}/events/stream`, auth); // ip 3
      assert.equal(s2.status, 429);
      assert.equal(JSON.parse(s2.body!).code, "RATE_LIMITED");
      const w2 = await openWs(url); // ip 4
      w2.send({ type: "auth", apiKey: agent.apiKey });
      const [err] = await w2.messages.waitFor((m) => m.type === "error");
      assert.equal(err.code, "RATE_LIMITED");
      assert.equal((await w2.closed).code, 4429);
      w1.close();
      await w1.closed;
      await new Promise((r) => setTimeout(r, 50));
      const w3 = await openWs(url, auth); // ip 5: the slot was freed
      await w3.messages.waitFor((m) => m.type === "authenticated");
      s1.close();
      for (let i = 0; i < 50 && svc.delivery.hub.connections.countOf(agent.agentId) > 1; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(svc.delivery.hub.connections.countOf(agent.agentId), 1, "a closed SSE stream frees its slot");
      const w4 = await openWs(url); // ip 6
      await assert.rejects(openWs(url), (e: Error & { statusCode?: number }) => e.statusCode === 429, "ip 7 is over the per-IP window");
      w3.close();
      w4.close();
    } finally {
      await stopTestService(tsvc);
    }
  });
});
