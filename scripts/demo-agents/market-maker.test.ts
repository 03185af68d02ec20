/**
 * The demo market maker: its ladder, its handling of 429/402 (with a fake fetch), and a bounded run against a real
 * service (startService over HTTP) that leaves two-sided books on the seeded ORDERBOOK markets and no pending timers.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { randomUUID } from "node:crypto";
import type { RunningService } from "../../api/service";
import { systemClock, type Clock } from "../../relayer/clock";
import { startTestService, stopTestService, type TestService } from "../../test/support/service";
import { DEMO_MARKET_MAKER_NAME, issueDemoKey } from "../../api/domain/auth/local-agents";
import { abortableSleep, ladder, LOT, runMarketMaker, SHARE, type MarketMakerOptions } from "./market-maker";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const params = { levels: 3, halfSpreadBps: 100, levelStepBps: 100, baseSize: 10n * SHARE };
const yesPrice = (q: { outcome: number; priceBps: number }) => (q.outcome === 0 ? q.priceBps : 10_000 - q.priceBps);
const isBid = (q: { outcome: number; side: string }) => (q.outcome === 0) === (q.side === "buy");

/** A sleep that records what it was asked and counts the sleeps still pending. */
function trackedSleep() {
  const asked: number[] = [];
  let pending = 0;
  const sleep = async (ms: number, signal: AbortSignal) => {
    asked.push(ms);
    pending++;
    try {
      await abortableSleep(ms, signal);
    } finally {
      pending--;
    }
  };
  return { sleep, asked, pending: () => pending };
}

describe("market maker ladder", () => {
  it("quotes levels a side in lots, bids below asks, buys only when it holds nothing", () => {
    const qs = ladder(5000, params);
    assert.equal(qs.length, 6);
    for (const q of qs) {
      assert.equal(q.size % LOT, 0n);
      assert.equal(q.side, "buy");
    }
    const bids = qs.filter(isBid).map(yesPrice);
    const asks = qs.filter((q) => !isBid(q)).map(yesPrice);
    assert.deepEqual(bids, [4900, 4800, 4700]);
    assert.deepEqual(asks, [5100, 5200, 5300]);
    assert.deepEqual(
      qs.filter(isBid).map((q) => q.size),
      [10n * SHARE, 20n * SHARE, 30n * SHARE],
    );
  });

  it("sells held shares instead of buying the other outcome, as far as they cover a level", () => {
    const qs = ladder(5000, params, { yes: 25n * SHARE, no: 10n * SHARE });
    const sellsYes = qs.filter((q) => q.outcome === 0 && q.side === "sell");
    const sellsNo = qs.filter((q) => q.outcome === 1 && q.side === "sell");
    assert.deepEqual(
      sellsYes.map((q) => [q.priceBps, q.size]),
      [[5100, 10n * SHARE]],
    ); // 25 covers level 1 (10), not then level 2 (20)
    assert.deepEqual(
      sellsNo.map((q) => [q.priceBps, q.size]),
      [[5100, 10n * SHARE]],
    ); // a NO sell at 5100 is a YES bid at 4900
    assert.equal(qs.length, 6);
  });

  it("drops levels outside 1..9999 near the edges", () => {
    const qs = ladder(150, params);
    assert.deepEqual(qs.filter(isBid).map(yesPrice), [50]);
    assert.equal(qs.filter((q) => !isBid(q)).length, 3);
  });
});

describe("market maker against a fake server", () => {
  const market = {
    address: "0x" + "ab".repeat(20),
    pricingModel: "ORDERBOOK",
    state: "open",
    settlement: "committed",
    outcomes: [{ index: 0, probability: 0.4 }],
  };
  const fakeFetch = (write: () => Response): typeof fetch =>
    (async (url: string | URL | Request) => {
      const u = String(url);
      if (u.includes("/discover/markets")) return Response.json({ markets: [market] });
      if (u.includes("/orderbook/balances")) return Response.json({ balances: [] });
      return write();
    }) as typeof fetch;
  const run = async (write: () => Response, extra: Partial<MarketMakerOptions> = {}) => {
    const t = trackedSleep();
    const lines: string[] = [];
    const stats = await runMarketMaker({
      baseUrl: "http://127.0.0.1:1/api/agent/v1",
      apiKey: "svc_x",
      maxRefreshes: 2,
      refreshMs: 5,
      fetch: fakeFetch(write),
      sleep: t.sleep,
      log: (l) => lines.push(l),
      ...extra,
    });
    return { stats, lines, t };
  };

  it("waits the Retry-After of a 429 before the next refresh", async () => {
    const { stats, lines, t } = await run(() =>
      Response.json({ code: "RATE_LIMITED", detail: "slow down" }, { status: 429, headers: { "retry-after": "0.02" } }),
    );
    assert.deepEqual(t.asked, [20]);
    assert.equal(stats.errors, 2);
    assert.equal(stats.writes, 0);
    assert.ok(
      lines.some((l) => l.includes("429 RATE_LIMITED")),
      lines.join("\n"),
    );
  });

  it("pauses after a 402 FILL_ALLOWANCE_EXHAUSTED", async () => {
    const { t, lines } = await run(() => Response.json({ code: "FILL_ALLOWANCE_EXHAUSTED", detail: "spent" }, { status: 402 }), { allowancePauseMs: 30 });
    assert.deepEqual(t.asked, [30]);
    assert.ok(
      lines.some((l) => l.includes("fill allowance exhausted")),
      lines.join("\n"),
    );
  });

  it("logs one line per failed refresh and goes on when the service is unreachable", async () => {
    const lines: string[] = [];
    const t = trackedSleep();
    const stats = await runMarketMaker({
      baseUrl: "http://127.0.0.1:9/api/agent/v1",
      apiKey: "svc_x",
      maxRefreshes: 3,
      refreshMs: 1,
      sleep: t.sleep,
      log: (l) => lines.push(l),
      requestTimeoutMs: 2000,
    });
    assert.equal(stats.refreshes, 3);
    assert.equal(stats.errors, 3);
    assert.equal(lines.filter((l) => l.includes("refresh")).length, 3);
  });

  it("abortableSleep clears its timer when aborted", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    const ac = new AbortController();
    const p = abortableSleep(60_000, ac.signal);
    assert.equal(timers(), before + 1);
    ac.abort();
    await p;
    assert.equal(timers(), before);
  });
});

describe("market maker against the service", () => {
  let svc: RunningService;
  let t: TestService<Clock>;
  let key: string;

  before(async () => {
    t = await startTestService({ INDEXER_ENABLED: "false" }, { publish: false, clock: systemClock });
    svc = t.svc;
    key = (await issueDemoKey(svc.ctx.db, svc.ctx.clock, DEMO_MARKET_MAKER_NAME)).apiKey;
  });

  after(async () => {
    await stopTestService(t);
  });

  const get = async (path: string, withKey = false): Promise<Json> => {
    const res = await fetch(`${svc.baseUrl}${path}`, { headers: withKey ? { authorization: `Bearer ${key}` } : {} });
    const json = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(json));
    return json;
  };

  it("quotes every seeded ORDERBOOK market two-sided in a bounded run", async () => {
    const lines: string[] = [];
    const t = trackedSleep();
    const stats = await runMarketMaker({ baseUrl: svc.baseUrl, apiKey: key, maxRefreshes: 3, refreshMs: 10, sleep: t.sleep, log: (l) => lines.push(l) });
    const books = (await get("/discover/markets?pricingModel=ORDERBOOK&pageSize=100")).markets as Json[];
    assert.ok(books.length >= 3, "the seeded ORDERBOOK markets");
    assert.equal(stats.errors, 0, lines.join("\n"));
    assert.equal(stats.refreshes, 3);
    assert.equal(stats.writes, 3 * books.length);
    for (const m of books) {
      const depth = await get(`/discover/markets/${m.address}/depth`);
      assert.equal(depth.kind, "orderbook");
      assert.ok(depth.bids.length >= 3 && depth.asks.length >= 3, JSON.stringify(depth));
      assert.ok(Number(depth.bids[0].priceBps) < Number(depth.asks[0].priceBps));
      // The book is the market maker's: its open orders are the last quote set (earlier sets were replaced).
      const mine = (await get(`/orderbook/orders?market=${m.address}`, true)).orders as Json[];
      assert.equal(mine.length, 6, JSON.stringify(mine));
      const bidTotal = (depth.bids as Json[]).reduce((s, l) => s + BigInt(l.size), 0n);
      const myBids = mine.filter((o) => (o.outcome === 0) === (o.side === "buy")).reduce((s, o) => s + BigInt(o.remainingSize), 0n);
      assert.equal(bidTotal, myBids);
    }
    assert.equal(t.pending(), 0);
  });

  it("after a taker lifts its best ask, quotes the shares it got back as a sell", async () => {
    const [m] = (await get("/discover/markets?pricingModel=ORDERBOOK&pageSize=1")).markets as Json[];
    const depth = await get(`/discover/markets/${m.address}/depth`);
    const taker = await issueDemoKey(svc.ctx.db, svc.ctx.clock, "mm-test-taker");
    const res = await fetch(`${svc.baseUrl}/orderbook/place-order`, {
      method: "POST",
      headers: { authorization: `Bearer ${taker.apiKey}`, "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ market: m.address, outcome: 0, side: "buy", priceBps: depth.asks[0].priceBps, size: String(10n * SHARE), timeInForce: "IOC" }),
    });
    const placed = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(placed));
    assert.equal(placed.orders[0].filledSize, String(10n * SHARE));
    // The fill minted NO shares for the market maker (its ask was a NO buy); its next quote set sells them.
    const stats = await runMarketMaker({ baseUrl: svc.baseUrl, apiKey: key, maxRefreshes: 1, log: () => {} });
    assert.equal(stats.errors, 0);
    const mine = (await get(`/orderbook/orders?market=${m.address}`, true)).orders as Json[];
    const noSells = mine.filter((o) => o.outcome === 1 && o.side === "sell");
    assert.equal(noSells.length, 1, JSON.stringify(mine));
    assert.equal(noSells[0].size, String(10n * SHARE));
  });

  for (const when of ["during a refresh", "during the sleep between refreshes"] as const) {
    it(`stops when aborted ${when} and leaves no pending sleep or request`, async () => {
      const ac = new AbortController();
      const t = trackedSleep();
      let inFlight = 0;
      let writes = 0;
      const counting: typeof fetch = async (input, init) => {
        inFlight++;
        try {
          const res = await fetch(input, init);
          if (when === "during a refresh" && String(input).includes("replace-quotes") && ++writes === 2) ac.abort();
          return res;
        } finally {
          inFlight--;
        }
      };
      const sleep = async (ms: number, signal: AbortSignal) => {
        if (when === "during the sleep between refreshes") setTimeout(() => ac.abort(), 20);
        await t.sleep(ms, signal);
      };
      // One market per call, so the second write is in the middle of a refresh.
      const stats = await runMarketMaker({
        baseUrl: svc.baseUrl,
        apiKey: key,
        refreshMs: 600_000,
        quoteSetsPerCall: 1,
        sleep,
        fetch: counting,
        signal: ac.signal,
        log: () => {},
      });
      assert.equal(stats.refreshes, 1, JSON.stringify(stats));
      if (when === "during a refresh") assert.ok(stats.writes < 3, JSON.stringify(stats));
      else assert.equal(stats.writes, 3);
      assert.deepEqual(t.asked, [600_000]);
      assert.equal(t.pending(), 0);
      assert.equal(inFlight, 0);
    });
  }
});
