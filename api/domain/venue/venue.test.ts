/**
 * The committed venue inside a running service: demo markets tradable in the engine, LMSR quote/prepare through
 * /trade, the starting grant and fill allowance, engine-backed depth and holders, catalog trades, and a restart that
 * restores the same engine from the snapshot the stop stored, without granting or seeding twice.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Address } from "viem";
import { createLocalAgent, type LocalAgent } from "../auth/local-agents";
import { grantMarketMakerAllocation, MARKET_MAKER_FILL_CREDITS } from "./market-maker-allocation";
import { COLLATERAL_ASSET, outcomeAssetId } from "../../../decoder";
import { apiClient, restartTestService, startTestService, stopTestService, type Json, type TestService } from "../../../test/support/service";

const GRANT = 1_000_000_000n;

describe("committed venue in the service", () => {
  let t: TestService;
  let agent: LocalAgent;
  let lmsr: Json;

  before(async () => {
    t = await startTestService({ PM_STARTING_GRANT: GRANT.toString(), FILL_ALLOWANCE_FREE_PER_PERIOD: "5" });
    agent = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "venue-trader" });
  });
  after(async () => stopTestService(t));

  it("lists the demo markets in the catalog and creates each in the engine", async () => {
    const call = apiClient(t, agent.apiKey);
    const all = (await call("GET", "/discover/markets?pageSize=100")).json.markets as Json[];
    const kinds = all.map((m) => `${m.pricingModel}/${m.outcomes.length}`).sort();
    assert.deepEqual(kinds, ["ORDERBOOK/2", "ORDERBOOK/2", "ORDERBOOK/2", "automated/2", "automated/2", "automated/2"]);
    const engine = t.svc.services.venue!.exchange.engine;
    for (const m of all) assert.ok(engine.market(BigInt(m.marketId)), `${m.address} is in the engine`);
    lmsr = all.find((m) => m.pricingModel === "automated" && m.outcomes.length === 2)!;
  });

  it("quotes and executes an LMSR buy within the slippage bound, once per Idempotency-Key", async () => {
    const call = apiClient(t, agent.apiKey);
    const body = { market: lmsr.address, outcome: 0, side: "buy", shares: "10000000", slippageBps: 100 };
    const quote = await call("POST", "/trade/quote", body);
    assert.equal(quote.status, 200, JSON.stringify(quote.json));
    assert.equal(quote.json.lane, "committed");
    const cost = BigInt(quote.json.cost);
    assert.ok(cost > 4_000_000n && cost < 6_000_000n, `10 shares near p=0.5 cost ~5 PM, got ${cost}`);
    assert.equal(BigInt(quote.json.maxCost), (cost * 10_100n + 9_999n) / 10_000n);

    const idem = "prepare-1";
    const first = await call("POST", "/trade/prepare", body, { idem });
    assert.equal(first.status, 201, JSON.stringify(first.json));
    assert.equal(first.json.executed, true);
    assert.equal(first.json.cost, quote.json.cost, "nothing moved the pool between quote and prepare");
    const replay = await call("POST", "/trade/prepare", body, { idem });
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.equal(replay.json.tradeId, first.json.tradeId);

    const engine = t.svc.services.venue!.exchange.engine;
    const account = agent.ledgerAccount.toLowerCase() as Address;
    const marketId = (await t.svc.services.venue!.marketAt(lmsr.address)).marketId;
    assert.equal(engine.balance(account, COLLATERAL_ASSET).total, GRANT - cost, "the grant once, the cost once");
    assert.equal(engine.balance(account, outcomeAssetId(marketId, 0)).total, 10_000_000n);
  });

  it("a new agent's concurrent first orders all find its starting grant, granted once", async () => {
    // The first call opens the account (openAccount, then the grant); the others must wait for that opening, not take
    // the account as ready once the engine knows it.
    const fresh = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "venue-first-burst" });
    const call = apiClient(t, fresh.apiKey);
    const book = ((await call("GET", "/discover/markets?pricingModel=ORDERBOOK&pageSize=1")).json.markets as Json[])[0]!;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call("POST", "/orderbook/place-order", { market: book.address, outcome: 0, side: "buy", priceBps: String(100 + i), size: "10000", timeInForce: "GTC" }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(8).fill(200),
      JSON.stringify(answers.find((a) => a.status !== 200)?.json),
    );
    const account = fresh.ledgerAccount.toLowerCase() as Address;
    assert.equal(t.svc.services.venue!.exchange.engine.balance(account, COLLATERAL_ASSET).total, GRANT, "granted once");
    // The later tests start from an empty book.
    const cancelled = await call("POST", "/orderbook/cancel-all", { market: book.address });
    assert.equal((cancelled.json.cancelled as string[]).length, 8, JSON.stringify(cancelled.json));
  });

  it("counts the fill against the allowance shown by /me and /fills/allowance", async () => {
    const call = apiClient(t, agent.apiKey);
    const me = await call("GET", "/me");
    assert.equal(me.json.fills.enabled, true);
    assert.equal(me.json.fills.freePerPeriod, 5);
    assert.equal(me.json.fills.freeUsed, 1);
    assert.equal((await call("GET", "/fills/allowance")).json.remaining, 4);
  });

  it("refuses a sale of more than is held with a problem and changes nothing", async () => {
    const call = apiClient(t, agent.apiKey);
    const engine = () => t.svc.services.venue!.exchange.engine;
    const account = agent.ledgerAccount.toLowerCase() as Address;
    const before = engine().balances(account);
    const res = await call("POST", "/trade/prepare", { market: lmsr.address, outcome: 0, side: "sell", shares: "20000000" });
    assert.equal(res.status, 409);
    assert.match(String(res.json.type), /INSUFFICIENT_BALANCE$/);
    assert.deepEqual(engine().balances(account), before);
  });

  it("serves the LMSR ladder and the holders from the engine, and the trade from the catalog", async () => {
    const call = apiClient(t, agent.apiKey);
    const depth = (await call("GET", `/discover/markets/${lmsr.address}/depth`)).json;
    assert.equal(depth.kind, "lmsr");
    assert.equal(depth.source, "engine");
    assert.ok(depth.outcomes[0].probability > 0.5 && depth.outcomes[1].probability < 0.5, JSON.stringify(depth.outcomes.map((o: Json) => o.probability)));
    assert.ok(depth.outcomes[0].ladder.length >= 3);
    const holders = (await call("GET", `/discover/markets/${lmsr.address}/holders`)).json;
    assert.deepEqual(holders.outcomes[0].holders, [{ account: agent.ledgerAccount.toLowerCase(), size: "10000000" }]);
    assert.equal(holders.openInterest, "10000000");
    let trades: Json[] = [];
    for (let i = 0; i < 50 && trades.length === 0; i++) {
      trades = (await call("GET", `/discover/markets/${lmsr.address}/trades`)).json.trades;
      if (trades.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(trades.length, 1);
    assert.equal(trades[0].size, "10000000");
    assert.equal(trades[0].takerSide, "buy");
  });

  it("gives a market maker its rate tier and a standing balance of fill credits that a second grant does not stack", async () => {
    const maker = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "venue-maker" });
    const call = apiClient(t, maker.apiKey);
    const before = (await call("GET", "/me")).json;
    assert.equal(before.rateLimits.tier, before.tier, "ordinary allocation: the authorization tier");
    for (let i = 0; i < 2; i++) await grantMarketMakerAllocation(t.svc.ctx.db, t.clock, t.svc.services.venue!, maker);
    const me = (await call("GET", "/me")).json;
    assert.equal(me.rateLimits.tier, "market-maker");
    assert.equal(me.fills.paidRemaining, MARKET_MAKER_FILL_CREDITS);
    assert.equal(me.fills.remaining, 5 + MARKET_MAKER_FILL_CREDITS);
  });

  describe("ORDERBOOK prepare: an IOC within the slippage bound", () => {
    let book: Json;
    let M: ReturnType<typeof apiClient>;
    let T: ReturnType<typeof apiClient>;
    /** Everything an agent could see change: balances, open orders and its execution reports. */
    const seen = async (call: ReturnType<typeof apiClient>) => ({
      balances: (await call("GET", "/orderbook/balances")).json,
      orders: (await call("GET", "/orderbook/orders")).json,
      events: (await call("POST", "/orderbook/events", { fromSeq: 0, limit: 500 })).json,
    });
    const conflict = (r: { status: number; json: Json }, reason: string) => {
      assert.equal(r.status, 409, JSON.stringify(r.json));
      assert.match(String(r.json.type), /CONFLICT$/);
      assert.equal(r.json.reason, reason, JSON.stringify(r.json));
    };
    const held = (b: Json, asset: string) => BigInt((b.balances as Json[]).find((x) => x.assetId === asset)?.total ?? "0");

    before(async () => {
      const maker = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "venue-ob-maker" });
      const taker = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "venue-ob-taker" });
      M = apiClient(t, maker.apiKey);
      T = apiClient(t, taker.apiKey);
      book = ((await T("GET", "/discover/markets?pricingModel=ORDERBOOK&pageSize=100")).json.markets as Json[])[0]!;
      const depth = (await T("GET", `/discover/markets/${book.address}/depth`)).json;
      assert.deepEqual([depth.kind, depth.bids, depth.asks], ["orderbook", [], []], "the test starts from an empty book");
      // The maker rests a NO buy at 5500: in YES terms an ask of 10 shares at 4500, and nothing on the bid side.
      const placed = await M("POST", "/orderbook/place-order", {
        market: book.address,
        outcome: 1,
        side: "buy",
        priceBps: "5500",
        size: "10000000",
        clientOrderId: "mk-1",
      });
      assert.equal(placed.status, 200, JSON.stringify(placed.json));
    });

    it("refuses NO_LIQUIDITY when the side it would take is empty, and changes nothing", async () => {
      const before = [await seen(T), await seen(M)];
      // A NO buy takes YES bids (it mints against YES buyers): there are none.
      const body = { market: book.address, outcome: 1, side: "buy", shares: "1000000" };
      const quote = await T("POST", "/trade/quote", body);
      assert.equal(quote.status, 200, JSON.stringify(quote.json));
      assert.deepEqual([quote.json.fillableShares, quote.json.limitPriceBps], ["0", null]);
      conflict(await T("POST", "/trade/prepare", body), "NO_LIQUIDITY");
      assert.deepEqual([await seen(T), await seen(M)], before);
    });

    it("fills against resting depth at the maker's price, within the quoted limit", async () => {
      const body = { market: book.address, outcome: 0, side: "buy", shares: "4000000", slippageBps: 100 };
      const quote = await T("POST", "/trade/quote", body);
      assert.equal(quote.status, 200, JSON.stringify(quote.json));
      assert.deepEqual([quote.json.fillableShares, quote.json.worstPriceBps, quote.json.limitPriceBps], ["4000000", "4500", "4545"]);
      const before = (await seen(T)).balances;
      const res = await T("POST", "/trade/prepare", { ...body, limitPriceBps: quote.json.limitPriceBps });
      assert.equal(res.status, 201, JSON.stringify(res.json));
      assert.deepEqual(
        [res.json.lane, res.json.executed, res.json.status, res.json.filledSize, res.json.cancelledSize, res.json.limitPriceBps],
        ["committed", true, "filled", "4000000", "0", "4545"],
      );
      assert.equal(res.json.fills.length, 1);
      const [fill] = res.json.fills as Json[];
      assert.deepEqual([fill.priceBps, fill.size, fill.liquidity], ["4500", "4000000", "taker"]);
      assert.equal(fill.fee, quote.json.fee, "the fee the quote announced");
      const after = (await seen(T)).balances;
      const yes = outcomeAssetId(BigInt(book.marketId), 0).toString();
      assert.equal(held(after, yes), 4_000_000n);
      assert.equal(held(before, "0") - held(after, "0"), 1_800_000n + BigInt(fill.fee), "4 shares at 0.45 PM plus the taker fee");
      assert.deepEqual((await seen(T)).orders.orders as Json[], [], "an IOC never rests");
      const rest = ((await seen(M)).orders.orders as Json[]).map((o) => [o.clientOrderId, o.remainingSize]);
      assert.deepEqual(rest, [["mk-1", "6000000"]]);
    });

    it("refuses SLIPPAGE when the book moved beyond the quoted limit, and changes nothing", async () => {
      const body = { market: book.address, outcome: 0, side: "buy", shares: "2000000", slippageBps: 100 };
      const quote = await T("POST", "/trade/quote", body);
      assert.equal(quote.json.limitPriceBps, "4545");
      // The maker reprices after the quote: its ask moves from 4500 to 5000 (a NO buy at 5000).
      const moved = await M("POST", "/orderbook/replace-quotes", {
        market: book.address,
        orders: [{ outcome: 1, side: "buy", priceBps: "5000", size: "6000000", clientOrderId: "mk-2" }],
      });
      assert.equal(moved.status, 200, JSON.stringify(moved.json));
      const before = [await seen(T), await seen(M)];
      const res = await T("POST", "/trade/prepare", { ...body, limitPriceBps: quote.json.limitPriceBps });
      conflict(res, "SLIPPAGE");
      assert.deepEqual([res.json.bestPriceBps, res.json.limitPriceBps], ["5000", "4545"]);
      assert.deepEqual([await seen(T), await seen(M)], before);
      // A bound that belongs to the other model is a field error, not ignored.
      const wrong = await T("POST", "/trade/prepare", { ...body, maxCost: "1000000" });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.json.field, "maxCost");
      assert.deepEqual([await seen(T), await seen(M)], before);
    });

    it("without a bound re-prices at the book it finds, and cancels what the book cannot fill", async () => {
      // 6 shares rest at 5000; 8 are asked for: the IOC takes the 6 and cancels 2, nothing rests.
      const res = await T("POST", "/trade/prepare", { market: book.address, outcome: 0, side: "buy", shares: "8000000", slippageBps: 100 });
      assert.equal(res.status, 201, JSON.stringify(res.json));
      assert.deepEqual(
        [res.json.executed, res.json.status, res.json.limitPriceBps, res.json.filledSize, res.json.cancelledSize],
        [true, "cancelled", "5050", "6000000", "2000000"],
      );
      assert.deepEqual(
        (res.json.fills as Json[]).map((f) => [f.priceBps, f.size]),
        [["5000", "6000000"]],
      );
      assert.deepEqual((await seen(T)).orders.orders, []);
      assert.deepEqual((await seen(M)).orders.orders, [], "the maker's order is filled");
    });
  });

  it("refuses an LMSR prepare whose pool moved beyond the quoted maxCost, and changes nothing", async () => {
    const other = apiClient(t, (await createLocalAgent(t.svc.ctx.db, t.clock, { name: "venue-lmsr-mover" })).apiKey);
    const call = apiClient(t, agent.apiKey);
    const body = { market: lmsr.address, outcome: 0, side: "buy", shares: "1000000", slippageBps: 0 };
    const quote = await call("POST", "/trade/quote", body);
    const moved = await other("POST", "/trade/prepare", { ...body, shares: "5000000" });
    assert.equal(moved.status, 201, JSON.stringify(moved.json));
    const engine = () => t.svc.services.venue!.exchange.engine;
    const account = agent.ledgerAccount.toLowerCase() as Address;
    const before = engine().balances(account);
    const res = await call("POST", "/trade/prepare", { ...body, maxCost: quote.json.maxCost });
    assert.equal(res.status, 409, JSON.stringify(res.json));
    assert.equal(res.json.reason, "SLIPPAGE");
    assert.deepEqual(engine().balances(account), before);
  });

  it("rebuilds the same engine after a restart, without a second grant or a second listing", async () => {
    const account = agent.ledgerAccount.toLowerCase() as Address;
    const before = t.svc.services.venue!.exchange.engine.balances(account);
    const count = (await apiClient(t)("GET", "/discover/markets?pageSize=100")).json.markets.length;
    const state = t.svc.services.venue!.exchange.engine.snapshot();
    t = await restartTestService(t);
    // The clean stop stored the engine's snapshot: the start restored it and replayed nothing (docs/journal.md "Snapshots").
    const { opened, engine: restored } = t.svc.services.venue!.exchange;
    assert.deepEqual([opened.snapshotSeq, opened.replayedEntries], [opened.entries, 0]);
    assert.deepEqual(restored.snapshot(), state);
    assert.deepEqual(t.svc.services.venue!.exchange.engine.balances(account), before);
    assert.equal((await apiClient(t)("GET", "/discover/markets?pageSize=100")).json.markets.length, count);
    const call = apiClient(t, agent.apiKey);
    const quote = await call("POST", "/trade/quote", { market: lmsr.address, outcome: 1, side: "buy", shares: "1000000" });
    assert.equal(quote.status, 200);
    assert.deepEqual(t.svc.services.venue!.exchange.engine.balances(account), before, "a quote (and re-opening) changes nothing");
  });
});
