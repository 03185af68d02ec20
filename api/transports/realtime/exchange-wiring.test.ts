/**
 * The real exchange wired with the one-line adapter: commands submitted to Exchange (engine + journal on the
 * service's database) reach a WebSocket client as execution reports with consecutive seqs and as market events
 * (snapshot, deltas, trade, price frame); an SSE client resumes from the journal's execution_reports table; a webhook
 * subscription gets the same reports.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Address } from "viem";
import type { RunningService } from "../../service";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { systemClock, type Clock } from "../../../relayer/clock";
import type { Exchange } from "../../../relayer/exchange/exchange";
import { expectAccepted } from "../../../relayer/exchange/trading-run";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { openSse, openWs, type WsMessage } from "./test-clients";

describe("exchange -> realtime wiring", () => {
  let svc: RunningService;
  let t: TestService<Clock>;
  let ex: Exchange;
  let alice: LocalAgent;
  const counterparty = "0x000000000000000000000000000000000000c0de" as Address;
  /** A market id clear of the demo markets the service lists at start. */
  const M = 100n;

  before(async () => {
    t = await startTestService({}, { clock: systemClock });
    svc = t.svc;
    alice = await createLocalAgent(svc.ctx.db, systemClock, { name: "rtx-alice" });
    // The service's own exchange: openVenue (api/domain/venue/open-venue.ts) wired it to the realtime surface.
    ex = svc.services.venue!.exchange;
    const now = Date.now();
    for (const account of [alice.ledgerAccount as Address, counterparty]) {
      expectAccepted(await ex.submit({ type: "openAccount", account, signupAt: now }));
      expectAccepted(await ex.submit({ type: "credit", account, amount: 10n ** 15n, reason: "GRANT" }));
    }
    expectAccepted(
      await ex.submit({
        type: "createMarket",
        marketId: M,
        pricing: "ORDERBOOK",
        outcomes: 2,
        feeModel: "notional-v1",
        takerFeeBps: 50,
        sellExitFeeBps: 0,
        winningsExitFeeBps: 0,
      }),
    );
  });
  after(async () => {
    await stopTestService(t);
  });

  it("orders and fills arrive as execution reports and market events; SSE replays them from the journal", async () => {
    const c = await openWs(`${svc.baseUrl.replace(/^http/, "ws")}/ws`, { authorization: `Bearer ${alice.apiKey}` });
    await c.messages.waitFor((m) => m.type === "authenticated");
    c.send({ type: "subscribe", channel: "execution", fromSeq: 1 });
    c.send({ type: "subscribe", channel: "market", marketId: String(M) });
    const [snap] = await c.messages.waitFor((m) => m.type === "book:snapshot");
    assert.deepEqual((snap.data as { bids: unknown[] }).bids, []);

    expectAccepted(
      await ex.submit({
        type: "placeOrder",
        account: alice.ledgerAccount as Address,
        marketId: M,
        outcome: 0,
        action: "buy",
        priceBps: 4500,
        size: 40_000n,
        tif: "GTC",
        clientOrderId: "a1",
      }),
    );
    expectAccepted(
      await ex.submit({
        type: "placeOrder",
        account: counterparty,
        marketId: M,
        outcome: 1,
        action: "buy",
        priceBps: 5500,
        size: 10_000n,
        tif: "IOC",
        clientOrderId: "c1",
      }),
    );
    const isReport = (m: WsMessage) => m.type === "execution:report";
    const reports = await c.messages.waitFor(isReport, 2);
    assert.deepEqual(
      reports.map((m) => m.seq),
      [1, 2],
    );
    const [placed, fill] = reports.map((m) => m.data as Record<string, unknown>);
    assert.equal(placed.kind, "new");
    assert.equal(placed.clientOrderId, "a1");
    assert.equal(fill.kind, "fill");
    assert.equal(fill.fillSize, "10000");
    assert.equal(fill.remainingSize, "30000");

    const live = await c.messages.waitFor((m) => m.channel === `market:${M}` && ["book:delta", "market:trade", "market:price"].includes(m.type), 4);
    assert.deepEqual(
      live.map((m) => m.seq),
      [1, 2, 3, 4],
    );
    assert.deepEqual(
      live.map((m) => m.type),
      ["book:delta", "book:delta", "market:trade", "market:price"],
    );
    assert.deepEqual(live[0].data, { marketId: String(M), side: "bid", priceBps: "4500", size: "40000" });
    assert.deepEqual(live[1].data, { marketId: String(M), side: "bid", priceBps: "4500", size: "30000" });
    assert.equal((live[3].data as { priceBps: string }).priceBps, "4500", "price frame in YES terms");
    c.close();

    const s = await openSse(`${svc.baseUrl}/events/stream?fromSeq=1`, { authorization: `Bearer ${alice.apiKey}` });
    const replayed = await s.events.waitFor((e) => e.event === "execution:report", 2);
    assert.deepEqual(
      replayed.map((e) => e.id),
      ["1", "2"],
    );
    assert.deepEqual(
      replayed.map((e) => e.data.data),
      reports.map((m) => m.data),
      "replay from the journal equals what was pushed live",
    );
    s.close();
  });
});
