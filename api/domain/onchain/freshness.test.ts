/** Freshness when the indexer or the chain cannot be reached: not fresh, nulls, and the reason; cached briefly. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FreshnessProbe, FRESHNESS_CACHE_MS, projectionFreshnessSchema } from "./freshness";
import { freePort } from "../../../test/support/ports";

describe("FreshnessProbe", () => {
  it("reports an unreachable indexer as not fresh, with the chain id and the error", async () => {
    const port = await freePort(); // nothing listens here
    const now = 1_800_000_000_000;
    const probe = new FreshnessProbe(`http://127.0.0.1:${port}`, `http://127.0.0.1:${port}`, 8453, () => now);
    const f = await probe.check();
    assert.equal(f.source, "indexer");
    assert.equal(f.fresh, false);
    assert.equal(f.checkedAt, new Date(now).toISOString());
    assert.deepEqual(f.cursors, [{ chainId: 8453, blockNumber: null, headBlockNumber: null, lagSeconds: null, healthy: false }]);
    assert.ok(f.error);
    assert.ok(projectionFreshnessSchema.safeParse(f).success);
    assert.equal(await probe.check(), f); // cached
    await new Promise((r) => setTimeout(r, FRESHNESS_CACHE_MS + 10));
    assert.notEqual(await probe.check(), f); // measured again, though the injected clock stood still
  });

  it("declares block numbers as digits strings and lag as an integer, as the contract's Projection freshness says", () => {
    const cursor = { chainId: 8453, blockNumber: "123", headBlockNumber: "124", lagSeconds: 2, healthy: true };
    const ok = { source: "indexer", fresh: true, checkedAt: new Date(0).toISOString(), cursors: [cursor] };
    assert.ok(projectionFreshnessSchema.safeParse(ok).success);
    for (const bad of [{ blockNumber: 123 }, { blockNumber: "0x7b" }, { headBlockNumber: 124 }, { lagSeconds: 1.5 }]) {
      assert.equal(projectionFreshnessSchema.safeParse({ ...ok, cursors: [{ ...cursor, ...bad }] }).success, false, JSON.stringify(bad));
    }
  });
});
