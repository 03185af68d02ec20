import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { openTestDatabase } from "../../../../test/support/db";
import type { Database } from "../../../../relayer/db/client";
import { manualClock } from "../../../../relayer/clock";
import { poolAccountOf } from "../../../../decoder/assets";
import { demoMarkets } from "./demo-markets";
import { seedCatalog } from "./seed-catalog";

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
    assert.deepEqual(
      first.map((s) => s.marketId),
      [1n, 2n, 3n, 4n, 5n, 6n],
    );
    assert.ok(first.every((s) => s.created && s.address === poolAccountOf(s.marketId).toLowerCase()));
    clock.advance(60_000);
    const again = await seedCatalog(db, clock, demoMarkets(clock.now()), { chainId: 8453 });
    assert.deepEqual(
      again.map((s) => [s.marketId, s.created]),
      first.map((s) => [s.marketId, false]),
    );
    const rows = await db.query<{ n: unknown; arrays: unknown }>(
      `SELECT COUNT(*) AS n, COUNT(*) FILTER (WHERE jsonb_typeof(outcomes) = 'array' AND jsonb_typeof(last_prices) = 'array') AS arrays FROM markets`,
    );
    assert.equal(Number(rows[0].n), 6);
    assert.equal(Number(rows[0].arrays), 6, "jsonb columns hold arrays, not JSON strings");
  });
});
