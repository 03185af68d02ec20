import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import fc from "fast-check";
import { exitFee, FEE_DEFAULTS, MAX_FEE_BPS, takerFee } from "./fees";

const SHARE = 1_000_000n; // one share (6 decimals)

describe("fees", () => {
  it("worked examples of docs/fees.md", () => {
    // 100 shares at 3700 bps, 200 bps taker fee: notional 37 PM, fee 0.74 PM under both models
    assert.equal(takerFee("notional-v1", 200, 3700, 100n * SHARE), 740_000n);
    assert.equal(takerFee("shares-v2", 200, 3700, 100n * SHARE), 740_000n);
    // above 50 %, shares-v2 charges on the distance to certainty (10000 - p), notional-v1 on p
    assert.equal(takerFee("notional-v1", 200, 6300, 100n * SHARE), 1_260_000n);
    assert.equal(takerFee("shares-v2", 200, 6300, 100n * SHARE), 740_000n);
    // a single base unit still pays one base unit of fee: rounding is up, once
    assert.equal(takerFee("notional-v1", 200, 3700, 1n), 1n);
    assert.equal(takerFee("notional-v1", 0, 3700, 1n), 0n);
    // one ceil at the end, not one per step: 3 shares at 3333 bps, 10 bps -> exact 0.0009999 base units -> 1;
    // 15_000 base units at 3333 bps and 20 bps -> exact 9.999 -> 10 (two ceils would give ceil(4999.5)=5000 -> 10, same here)
    assert.equal(takerFee("notional-v1", 20, 3333, 15_000n), 10n);
    assert.equal(exitFee(37_000_000n, 100), 370_000n);
    assert.equal(exitFee(1n, 1), 1n);
    assert.equal(exitFee(0n, 1000), 0n);
  });

  it("takerFee is the exact ceiling of the rational fee, for both models", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_FEE_BPS }), fc.integer({ min: 1, max: 9999 }), fc.bigInt({ min: 0n, max: 10n ** 15n }), (f, p, shares) => {
        const F = BigInt(f);
        const P = BigInt(p);
        const exact = { "notional-v1": P * shares * F, "shares-v2": F * (P < 10_000n - P ? P : 10_000n - P) * shares } as const;
        for (const model of ["notional-v1", "shares-v2"] as const) {
          const fee = takerFee(model, f, p, shares);
          assert.ok(fee * 100_000_000n >= exact[model], `${model} rounds up`);
          assert.ok(fee === 0n || (fee - 1n) * 100_000_000n < exact[model], `${model} by less than one unit`);
        }
        // shares-v2 is symmetric in the side: the same fee at p and at 10000 - p, and never above notional-v1 below 50 %
        assert.equal(takerFee("shares-v2", f, p, shares), takerFee("shares-v2", f, 10_000 - p, shares));
        if (p <= 5000) assert.equal(takerFee("shares-v2", f, p, shares), takerFee("notional-v1", f, p, shares));
      }),
      { numRuns: 300 },
    );
  });

  it("refuses bad inputs", () => {
    assert.throws(() => takerFee("notional-v1", 200, 0, 1n), RangeError);
    assert.throws(() => takerFee("notional-v1", 200, 10_000, 1n), RangeError);
    assert.throws(() => takerFee("notional-v1", -1, 5000, 1n), RangeError);
    assert.throws(() => takerFee("notional-v1", 2.5, 5000, 1n), RangeError);
    assert.throws(() => takerFee("notional-v1", 200, 5000, -1n), RangeError);
    assert.throws(() => takerFee("maker-v9" as never, 200, 5000, 1n), RangeError);
    assert.throws(() => exitFee(-1n, 100), RangeError);
  });

  it("defaults: LMSR buy fee and order-book place fee are 0, every rate within the contract cap", () => {
    assert.equal(FEE_DEFAULTS.lmsr.buyFeeBps, 0);
    assert.equal(FEE_DEFAULTS.orderbook.placeFeeBps, 0);
    assert.equal(FEE_DEFAULTS.orderbook.feePolicyVersion, "notional-v1");
    for (const v of [
      ...Object.values(FEE_DEFAULTS.lmsr),
      FEE_DEFAULTS.orderbook.routerTakerFeeBps,
      FEE_DEFAULTS.orderbook.operatorBatchFeeBps,
      FEE_DEFAULTS.orderbook.winningsExitFeeBps,
    ]) {
      assert.ok(Number.isInteger(v) && v >= 0 && v <= MAX_FEE_BPS);
    }
  });
});
