/**
 * Per-key rate windows over real HTTP (spec "Limits"), with small ceilings from the config: the read and write
 * classes each answer 429 RATE_LIMITED with the four headers at their ceiling, the market-maker allocation tier gets
 * its own higher ceilings on the wire (not only on GET /me), and a batch costs one unit.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createLocalAgent, type LocalAgent } from "../../../domain/auth/local-agents";
import { apiClient, startTestService, stopTestService, type CallResult, type Json, type TestService } from "../../../../test/support/service";

const CEILINGS = {
  RATE_LIMIT_READ_PER_MINUTE: "3",
  RATE_LIMIT_WRITE_PER_MINUTE: "2",
  RATE_LIMIT_MM_READ_PER_MINUTE: "5",
  RATE_LIMIT_MM_WRITE_PER_MINUTE: "4",
};

const windowOf = (r: CallResult) => ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((h) => r.headers.get(h));

describe("per-key rate limits (read and write classes, market-maker tier, batches)", () => {
  let t: TestService;
  let market: string;
  const agents: LocalAgent[] = [];
  /** A fresh agent (so a fresh key and empty windows), optionally on the market-maker allocation tier. */
  const agent = async (name: string, rateTier: "ordinary" | "market-maker" = "ordinary") => {
    const a = await createLocalAgent(t.svc.ctx.db, t.clock, { name });
    // Before the key is first used, so no cached principal holds the old tier.
    if (rateTier === "market-maker") await t.svc.ctx.db.query(`UPDATE api_agents SET rate_tier = 'market-maker' WHERE id = $1`, [a.agentId]);
    agents.push(a);
    return apiClient(t, a.apiKey);
  };
  /** Calls `n` times, one second apart, and returns the answers. */
  const repeat = async (n: number, call: () => Promise<CallResult>) => {
    const out: CallResult[] = [];
    for (let i = 0; i < n; i++) {
      out.push(await call());
      t.clock.advance(1_000);
    }
    return out;
  };
  const assertLimited = (r: CallResult, limit: number, firstAt: number, what: RegExp) => {
    assert.equal(r.status, 429, JSON.stringify(r.json));
    assert.equal(r.json.code, "RATE_LIMITED");
    assert.match(String(r.json.detail), what);
    const reset = Math.ceil((firstAt + 60_000) / 1000);
    assert.deepEqual(windowOf(r), [String(limit), "0", String(reset)]);
    const retryAfter = Math.max(1, reset - Math.floor(t.clock.now() / 1000));
    assert.equal(r.headers.get("retry-after"), String(retryAfter));
    assert.equal(r.json.retryAfter, retryAfter);
  };

  before(async () => {
    t = await startTestService(CEILINGS);
    const list = await apiClient(t)("GET", "/discover/markets?pricingModel=ORDERBOOK&pageSize=1"); // keyless: the IP window
    assert.equal(list.status, 200, JSON.stringify(list.json));
    market = (list.json.markets as Json[])[0]!.address as string;
    assert.ok(market, "a demo ORDERBOOK market");
  });
  after(async () => stopTestService(t));

  it("the read class answers 429 at the ordinary ceiling with RateLimit-* and Retry-After, and frees a unit as the oldest ages out", async () => {
    const call = await agent("rl-reader");
    const first = t.clock.now();
    const ok = await repeat(3, () => call("GET", "/orderbook/balances"));
    const reset = String(Math.ceil((first + 60_000) / 1000));
    assert.deepEqual(
      ok.map((r) => [r.status, ...windowOf(r)]),
      [
        [200, "3", "2", reset],
        [200, "3", "1", reset],
        [200, "3", "0", reset],
      ],
    );
    t.clock.advance(20_000);
    assertLimited(await call("GET", "/orderbook/balances"), 3, first, /read limit of this key/);
    // The write window of the same key is separate and untouched.
    const w = await call("POST", "/orderbook/cancel-all", {});
    assert.equal(w.status, 200, JSON.stringify(w.json));
    assert.deepEqual(windowOf(w).slice(0, 2), ["2", "1"]);
    t.clock.set(first + 60_000); // the first read leaves the window
    const again = await call("GET", "/orderbook/balances");
    assert.equal(again.status, 200);
    assert.deepEqual(windowOf(again), ["3", "0", String(Math.ceil((first + 61_000) / 1000))]);
  });

  it("the write class answers 429 at its ceiling, and the refused write changes nothing", async () => {
    const call = await agent("rl-writer");
    const first = t.clock.now();
    const ok = await repeat(2, () => call("POST", "/orderbook/cancel-all", {}));
    assert.deepEqual(
      ok.map((r) => [r.status, ...windowOf(r).slice(0, 2)]),
      [
        [200, "2", "1"],
        [200, "2", "0"],
      ],
    );
    const order = { market, orders: [{ outcome: 0, side: "buy", priceBps: "1000", size: "1000000" }] };
    assertLimited(await call("POST", "/orderbook/place-order", order), 2, first, /write limit of this key/);
    const open = await call("GET", "/orderbook/orders");
    assert.equal(open.status, 200);
    assert.deepEqual(open.json.orders, [], "the refused order was not placed");
  });

  it("a market-maker key gets the market-maker ceilings on the wire, while an ordinary key keeps the ordinary ones", async () => {
    const mm = await agent("rl-maker", "market-maker");
    const ordinary = await agent("rl-plain");
    const me = await mm("GET", "/me");
    assert.equal(me.json.rateLimits.tier, "market-maker");
    assert.deepEqual([me.json.rateLimits.readPerMinute, me.json.rateLimits.writePerMinute], [5, 4]);

    const first = t.clock.now();
    const reads = await repeat(5, () => mm("GET", "/orderbook/balances"));
    assert.deepEqual(
      reads.map((r) => [r.status, ...windowOf(r).slice(0, 2)]),
      [
        [200, "5", "4"],
        [200, "5", "3"],
        [200, "5", "2"],
        [200, "5", "1"],
        [200, "5", "0"],
      ],
    );
    assertLimited(await mm("GET", "/orderbook/balances"), 5, first, /read limit/);
    const writes = await repeat(4, () => mm("POST", "/orderbook/cancel-all", {}));
    assert.deepEqual(
      writes.map((r) => [r.status, ...windowOf(r).slice(0, 2)]),
      [
        [200, "4", "3"],
        [200, "4", "2"],
        [200, "4", "1"],
        [200, "4", "0"],
      ],
    );
    assertLimited(await mm("POST", "/orderbook/cancel-all", {}), 4, first + 5_000, /write limit/);

    const plain = await ordinary("GET", "/orderbook/balances");
    assert.deepEqual(windowOf(plain).slice(0, 2), ["3", "2"]);
  });

  it("public reads (GET /time, discovery documents and reads) are never charged to the caller's key: only the per-IP window", async () => {
    const call = await agent("rl-public");
    const ipCeiling = String(t.svc.ctx.config.RATE_LIMIT_IP_PER_MINUTE);
    for (const path of [
      "/time",
      "/time",
      "/time",
      "/time",
      "/auth-discovery",
      "/mcp-discovery",
      "/discover/fees",
      `/discover/markets/${market}`,
      "/discover/markets?pageSize=1",
    ]) {
      const r = await call("GET", path);
      assert.equal(r.status, 200, `${path} ${JSON.stringify(r.json)}`);
      assert.equal(r.headers.get("ratelimit-limit"), ipCeiling, `${path} shows the per-IP window`);
    }
    const rules = await call("POST", "/discover/markets/batch-trading-rules", { chainId: t.svc.ctx.config.CHAIN_ID, marketAddresses: [market] });
    assert.equal(rules.status, 200, JSON.stringify(rules.json));
    assert.equal(rules.headers.get("ratelimit-limit"), ipCeiling);
    const own = await call("GET", "/orderbook/balances");
    assert.deepEqual(windowOf(own).slice(0, 2), ["3", "2"], "the key's read window is untouched by the public reads");
  });

  it("a batch costs one unit: a placement of three orders is one write, cancel-all one write", async () => {
    const call = await agent("rl-batcher");
    const o = (priceBps: string) => ({ outcome: 0, side: "buy", priceBps, size: "1000000" });
    const batch = await call("POST", "/orderbook/place-order", { market, orders: [o("1000"), o("1100"), o("1200")] });
    assert.equal(batch.status, 200, JSON.stringify(batch.json));
    assert.equal((batch.json.orders as Json[]).length, 3);
    assert.deepEqual(windowOf(batch).slice(0, 2), ["2", "1"]);
    const cancelAll = await call("POST", "/orderbook/cancel-all", {});
    assert.equal((cancelAll.json.cancelled as string[]).length, 3);
    assert.deepEqual(windowOf(cancelAll).slice(0, 2), ["2", "0"], "cancelling three orders is one write");
  });
});
