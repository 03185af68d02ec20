import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { openTestDatabase } from "../../test/support/db";
import type { Database } from "../../relayer/db/client";
import { manualClock } from "../../relayer/clock";
import { poolAccountOf } from "../../decoder/assets";
import { demoMarkets } from "./demo-markets";
import { seedCatalog } from "./seed-catalog";
import { specsFromJson } from "./cli";

describe("seedCatalog", () => {
  let db: Database;
  const clock = manualClock(1_800_000_000_000);
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it("lists the demo markets once, with sequential marketIds and pool addresses; a re-run changes nothing", async () => {
    const first = await seedCatalog(db, clock, demoMarkets(clock.now()), { chainId: 8453 });
    assert.deepEqual(first.map((s) => s.marketId), [1n, 2n, 3n, 4n, 5n, 6n]);
    assert.ok(first.every((s) => s.created && s.address === poolAccountOf(s.marketId).toLowerCase()));
    clock.advance(60_000);
    const again = await seedCatalog(db, clock, demoMarkets(clock.now()), { chainId: 8453 });
    assert.deepEqual(again.map((s) => [s.marketId, s.created]), first.map((s) => [s.marketId, false]));
    const rows = await db.query<{ n: unknown; arrays: unknown }>(`SELECT COUNT(*) AS n, COUNT(*) FILTER (WHERE jsonb_typeof(outcomes) = 'array' AND jsonb_typeof(last_prices) = 'array') AS arrays FROM markets`);
    assert.equal(Number(rows[0].n), 6);
    assert.equal(Number(rows[0].arrays), 6, "jsonb columns hold arrays, not JSON strings");
  });

  it("reads a spec file as Polymarket entries or as MarketSpecs, reporting refused entries", () => {
    const pm = specsFromJson([{ conditionId: "0x" + "ab".repeat(32), question: "Will it snow in Rome?", endDate: "2027-01-01T00:00:00Z" }], false);
    assert.equal(pm.specs[0].externalId, `polymarket:0x${"ab".repeat(32)}`);
    const own = specsFromJson(
      [
        { externalId: "own:1", title: "A market of our own", pricingModel: "automated", outcomes: ["Yes", "No"], closeTime: 1_900_000_000_000, seed: "5000000", resolutionSource: { type: "creator", note: "" } },
        { externalId: "own:2", title: "Bad", pricingModel: "automated", outcomes: ["Yes"], closeTime: 1, resolutionSource: { type: "creator", note: "" } },
      ],
      false,
    );
    assert.equal(own.specs.length, 1);
    assert.equal(own.specs[0].seed, 5_000_000n);
    assert.deepEqual(own.errors.map((e) => e.index), [1]);
  });
});
