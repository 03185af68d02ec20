import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { demoMarkets } from "./demo-markets";
import { marketSpecSchema } from "./market-spec";
import { importPolymarketJson } from "./polymarket-import";

const cond = "0x" + "1f".repeat(32);

describe("demo markets", () => {
  it("are valid specs with the kinds a newcomer should find on the committed lane, closing in the future", () => {
    const now = 1_800_000_000_000;
    const specs = demoMarkets(now).map((m) => marketSpecSchema.parse(m));
    assert.ok(specs.some((m) => m.pricingModel === "ORDERBOOK" && m.outcomes.length === 2));
    assert.ok(specs.some((m) => m.pricingModel === "automated" && m.outcomes.length === 2 && m.seed));
    // The committed ledger is binary: a three-way market trades on the on-chain lane.
    assert.ok(specs.every((m) => m.outcomes.length === 2));
    for (const m of specs) assert.ok(m.closeTime > now);
    assert.equal(new Set(specs.map((m) => m.externalId)).size, specs.length);
  });
});

describe("Polymarket-style import", () => {
  it("maps conditionId, token ids and string-encoded arrays, and reports bad entries by index", () => {
    const r = importPolymarketJson([
      {
        conditionId: cond,
        question: "Will it rain in Paris tomorrow?",
        endDate: "2027-01-01T00:00:00Z",
        outcomes: '["Yes","No"]',
        clobTokenIds: '["123","456"]',
        category: "Weather",
      },
      { conditionId: "0x12", question: "Bad id", endDate: "2027-01-01" },
      { conditionId: "0x" + "2e".repeat(32), question: "Who wins the three-way derby?", endDate: "2027-02-01T00:00:00Z", outcomes: ["Home", "Draw", "Away"] },
    ]);
    assert.equal(r.markets.length, 2);
    assert.deepEqual(
      r.errors.map((e) => e.index),
      [1],
    );
    const [rain, derby] = r.markets;
    assert.deepEqual(rain.resolutionSource, { type: "polymarket", conditionId: cond });
    assert.deepEqual(rain.sourceTokenIds, ["123", "456"]);
    assert.equal(rain.category, "WEATHER");
    assert.equal(rain.pricingModel, "ORDERBOOK");
    assert.equal(derby.pricingModel, "automated");
    assert.ok(derby.seed && derby.seed > 0n);
  });
});
