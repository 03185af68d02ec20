/**
 * POST /trade/prepare on the committed lane executes fills, so it answers like place-order: the fill allowance left
 * as `fillsRemaining` and X-Fills-Remaining, and once the allowance is spent the same 402 FILL_ALLOWANCE_EXHAUSTED
 * with the ISO-shaped `allowance` as /orderbook/*, changing nothing. Through the real HTTP API.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { apiClient, startTestService, stopTestService, type Json, type TestService } from "../../../test/support/service";

describe("committed-lane prepare: fills remaining and the 402 allowance", () => {
  let t: TestService;
  let maker: LocalAgent;
  let taker: LocalAgent;
  let market: Json;

  before(async () => {
    t = await startTestService({ FILL_ALLOWANCE_FREE_PER_PERIOD: "2" });
    maker = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "prep-maker" });
    taker = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "prep-taker" });
    market = (await apiClient(t, maker.apiKey)("GET", "/discover/markets?pricingModel=ORDERBOOK")).json.markets[0];
  });
  after(async () => stopTestService(t));

  it("answers fillsRemaining and X-Fills-Remaining, then 402 with the allowance like place-order", async () => {
    const M = apiClient(t, maker.apiKey);
    const T = apiClient(t, taker.apiKey);
    const bid = await M("POST", "/orderbook/place-order", { market: market.address, outcome: 0, side: "buy", priceBps: "5000", size: "3000000" });
    assert.equal(bid.status, 200, JSON.stringify(bid.json));
    const seen: [string | null, number][] = [];
    for (let i = 0; i < 2; i++) {
      // A NO buy mints against the YES bid at 5000.
      const r = await T("POST", "/trade/prepare", { market: market.address, outcome: 1, side: "buy", shares: "1000000", slippageBps: 100 });
      assert.equal(r.status, 201, JSON.stringify(r.json));
      assert.equal(r.json.lane, "committed");
      assert.equal(r.json.status, "filled");
      seen.push([r.headers.get("x-fills-remaining"), r.json.fillsRemaining]);
    }
    assert.deepEqual(seen, [
      ["1", 1],
      ["0", 0],
    ]);

    const refused = await T("POST", "/trade/prepare", { market: market.address, outcome: 1, side: "buy", shares: "1000000", slippageBps: 100 });
    const placed = await T("POST", "/orderbook/place-order", { market: market.address, outcome: 1, side: "buy", priceBps: "5000", size: "1000000" });
    for (const r of [refused, placed]) {
      assert.equal(r.status, 402, JSON.stringify(r.json));
      assert.equal(r.json.code, "FILL_ALLOWANCE_EXHAUSTED");
      assert.equal(r.headers.get("x-fills-remaining"), "0");
      assert.match(String(r.json.allowance.resetsAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    assert.deepEqual(refused.json.allowance, placed.json.allowance, "the same allowance object on both paths");
    assert.equal(refused.json.allowance.freePerPeriod, 2);
    const m = await M("GET", "/orderbook/orders");
    assert.equal(m.json.orders[0].remainingSize, "1000000", "the refused prepare filled nothing");
  });
});
