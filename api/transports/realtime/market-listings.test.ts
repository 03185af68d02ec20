/**
 * The `markets` channel over real HTTP: a WebSocket client (the `ws` package) subscribed with
 * {"type":"subscribe","channel":"markets"} and an SSE reader (fetch, `?listings=true`) each receive `market:listed`
 * for a market another agent creates through the negotiate flow, with the address commit-deploy answered; an
 * unsubscribed WebSocket and a stream without `listings` receive nothing; a bad `listings` value is a problem.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { apiClient, startTestService, stopTestService, type Json, type TestService } from "../../../test/support/service";
import { openSse, openWs, type SseEvent, type WsMessage } from "./test-clients";

const DAY = 86_400_000;

describe("market:listed on the markets channel", () => {
  let t: TestService;
  let creator: LocalAgent;
  let listener: LocalAgent;

  before(async () => {
    t = await startTestService({ SEED_DEMO_MARKETS: "false", INDEXER_ENABLED: "false" });
    creator = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "listing-creator" });
    listener = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "listing-listener", tier: "read-only" });
  });
  after(async () => stopTestService(t));

  const wsUrl = () => `${t.svc.baseUrl.replace(/^http/, "ws")}/ws`;
  const sseUrl = (q: string) => `${t.svc.baseUrl}/events/stream${q}`;
  const auth = () => ({ authorization: `Bearer ${listener.apiKey}` });

  async function createMarket(externalId: string): Promise<Json> {
    const call = apiClient(t, creator.apiKey);
    const proposed = await call("POST", "/negotiate/propose", {
      externalId,
      title: `Will listing ${externalId} reach its subscribers?`,
      pricingModel: "ORDERBOOK",
      collateral: "PM",
      category: "TECH",
      closeTime: new Date(t.clock.now() + 10 * DAY).toISOString(),
      resolutionSource: { type: "creator", note: "the test" },
    });
    assert.equal(proposed.status, 201, JSON.stringify(proposed.json));
    const id = proposed.json.id as string;
    for (const step of ["accept", "prepare-deploy"]) assert.ok((await call("POST", `/negotiate/${id}/${step}`, {})).status < 300, step);
    const committed = await call("POST", `/negotiate/${id}/commit-deploy`, {});
    assert.equal(committed.status, 201, JSON.stringify(committed.json));
    return committed.json.market as Json;
  }

  it("reaches a WebSocket and an SSE subscriber, and only them", async () => {
    const ws = await openWs(wsUrl(), auth());
    await ws.messages.waitFor((m) => m.type === "authenticated");
    ws.send({ type: "subscribe", channel: "markets", id: "l1" });
    await ws.messages.waitFor((m) => m.type === "subscribed" && m.channel === "markets" && m.id === "l1");
    const quiet = await openWs(wsUrl(), auth());
    await quiet.messages.waitFor((m) => m.type === "authenticated");
    const sse = await openSse(sseUrl("?listings=true&execution=false"), auth());
    assert.equal(sse.status, 200, String(sse.body));
    await sse.events.waitFor((e) => e.event === "ready" && e.data.listings === true);
    const plain = await openSse(sseUrl("?execution=false"), auth());
    await plain.events.waitFor((e) => e.event === "ready");

    const market = await createMarket("listing-1");
    const isListed = (m: WsMessage | SseEvent["data"]) => m.type === "market:listed" && (m.data as Json).address === market.address;
    const [viaWs] = await ws.messages.waitFor(isListed);
    assert.equal(viaWs!.channel, "markets");
    const data = viaWs!.data as Json;
    assert.deepEqual(
      [data.marketId, data.settlement, data.pricingModel, data.state, data.creator],
      [market.marketId, "committed", "ORDERBOOK", "open", creator.ledgerAccount.toLowerCase()],
    );
    const [viaSse] = await sse.events.waitFor((e) => e.event === "market:listed" && isListed(e.data));
    assert.equal(viaSse!.data.channel, "markets");

    // After unsubscribing, the next listing no longer arrives; the streams that never asked got none.
    ws.send({ type: "unsubscribe", channel: "markets", id: "l2" });
    await ws.messages.waitFor((m) => m.type === "unsubscribed" && m.id === "l2");
    const second = await createMarket("listing-2");
    await sse.events.waitFor((e) => e.event === "market:listed" && (e.data.data as Json).address === second.address);
    assert.equal(ws.messages.items.filter((m) => m.type === "market:listed").length, 1);
    assert.equal(quiet.messages.items.filter((m) => m.type === "market:listed").length, 0);
    assert.equal(plain.events.items.filter((e) => e.event === "market:listed").length, 0);
    for (const c of [ws, quiet, sse, plain]) c.close();
  });

  it("refuses a listings value that is not a flag", async () => {
    const r = await openSse(sseUrl("?listings=maybe"), auth());
    assert.equal(r.status, 400);
    assert.match(String(JSON.parse(String(r.body)).type), /INVALID_PAYLOAD$/);
  });
});
