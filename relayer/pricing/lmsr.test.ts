import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  applyTrade,
  bFromSeed,
  cost,
  payout,
  priceWad,
  prices,
  quoteBuyForCost,
  quoteBuyShares,
  quoteSell,
  slippageLimit,
  voidPayout,
  withinSlippage,
  WAD,
  type LmsrState,
} from "./lmsr";

const SEED = 1_000_000_000n; // 1,000 PM
const start = (n: number, seed = SEED): LmsrState => ({ b: bFromSeed(seed, n), q: Array(n).fill(0n) });
const sharesArb = fc.oneof(fc.bigInt({ min: 1n, max: 10_000n }), fc.bigInt({ min: 10_000n, max: 5_000_000_000n }));
const tradeArb = (n: number) => fc.record({ outcome: fc.integer({ min: 0, max: n - 1 }), shares: sharesArb, buy: fc.boolean() });

/** Applies buys (and sells of what was bought) to a fresh market; returns the state and the pool's cash flows. */
function play(n: number, seed: bigint, sellFee: number, trades: { outcome: number; shares: bigint; buy: boolean }[]) {
  let s = start(n, seed);
  let pool = seed; // collateral held by the market
  for (const t of trades) {
    if (t.buy) {
      pool += quoteBuyShares(s, t.outcome, t.shares).cost;
      s = applyTrade(s, t.outcome, t.shares);
    } else {
      const shares = t.shares > s.q[t.outcome]! ? s.q[t.outcome]! : t.shares;
      if (shares === 0n) continue;
      const qt = quoteSell(s, t.outcome, shares, sellFee);
      pool -= qt.proceeds + qt.fee; // the fee leaves the pool for the treasury
      s = applyTrade(s, t.outcome, -shares);
    }
  }
  return { s, pool };
}

describe("LMSR pricing (pure)", () => {
  it("starts at uniform prices; b = seed / ln n; cost(0) = b ln n <= seed", () => {
    for (const n of [2, 3]) {
      const s = start(n);
      for (const p of prices(s)) assert.ok(p === WAD / BigInt(n) || p === WAD / BigInt(n) - 1n, `${p}`);
      assert.ok(cost(s) <= SEED * WAD);
      assert.ok(SEED * WAD - cost(s) < 2n * WAD, "b ln n is the seed less under 2 base units (b is floored)");
    }
    assert.equal(bFromSeed(SEED, 2), 1_442_695_040n);
    assert.throws(() => bFromSeed(SEED, 4), RangeError);
  });

  it("a buy costs at least shares * price before and at most shares; buying moves the price up", () => {
    fc.assert(
      fc.property(fc.constantFrom(2, 3), fc.array(tradeArb(3), { maxLength: 6 }), fc.integer({ min: 0, max: 2 }), sharesArb, (n, trades, o, shares) => {
        const { s } = play(
          n,
          SEED,
          0,
          trades.map((t) => ({ ...t, outcome: t.outcome % n })),
        );
        const outcome = o % n;
        const p0 = priceWad(s, outcome);
        const qt = quoteBuyShares(s, outcome, shares);
        assert.ok(qt.cost * WAD >= shares * p0, "cost >= shares * price");
        assert.ok(qt.cost <= shares + 1n, "cost <= shares (+1 margin)");
        assert.ok(qt.priceAfter >= p0);
        assert.equal(qt.fee, 0n);
      }),
      { numRuns: 150 },
    );
  });

  it("buying then selling the same shares never returns more than was paid", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(2, 3),
        fc.array(tradeArb(3), { maxLength: 6 }),
        fc.integer({ min: 0, max: 2 }),
        sharesArb,
        fc.integer({ min: 0, max: 1000 }),
        (n, trades, o, shares, fee) => {
          const { s } = play(
            n,
            SEED,
            0,
            trades.map((t) => ({ ...t, outcome: t.outcome % n })),
          );
          const outcome = o % n;
          const paid = quoteBuyShares(s, outcome, shares).cost;
          const back = quoteSell(applyTrade(s, outcome, shares), outcome, shares, fee);
          assert.ok(back.proceeds + back.fee < paid, `paid ${paid}, got back ${back.proceeds} + fee ${back.fee}`);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("prices sum to 1 WAD within n wei (each is floored)", () => {
    fc.assert(
      fc.property(fc.constantFrom(2, 3), fc.array(tradeArb(3), { maxLength: 12 }), (n, trades) => {
        const { s } = play(
          n,
          SEED,
          0,
          trades.map((t) => ({ ...t, outcome: t.outcome % n })),
        );
        const sum = prices(s).reduce((a, p) => a + p, 0n);
        assert.ok(sum <= WAD && sum > WAD - BigInt(n), `sum ${sum}`);
      }),
      { numRuns: 200 },
    );
  });

  it("the pool never loses more than the seed: after any trades it holds enough to pay every outcome's winners", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(2, 3),
        fc.bigInt({ min: 100n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 1000 }),
        fc.array(tradeArb(3), { maxLength: 25 }),
        (n, seed, fee, trades) => {
          const { s, pool } = play(
            n,
            seed,
            fee,
            trades.map((t) => ({ ...t, outcome: t.outcome % n })),
          );
          for (const qi of s.q) assert.ok(pool >= qi, `pool ${pool} < liability ${qi}`);
          // and a void pays floor(q_i / n) per outcome, less than the worst resolution
          assert.ok(pool >= s.q.reduce((a, qi) => a + voidPayout(qi, n), 0n));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("quoteBuyForCost finds the largest share count that fits the budget", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(2, 3),
        fc.array(tradeArb(3), { maxLength: 6 }),
        fc.integer({ min: 0, max: 2 }),
        fc.bigInt({ min: 0n, max: 2_000_000_000n }),
        (n, trades, o, budget) => {
          const { s } = play(
            n,
            SEED,
            0,
            trades.map((t) => ({ ...t, outcome: t.outcome % n })),
          );
          const outcome = o % n;
          const { shares, quote } = quoteBuyForCost(s, outcome, budget);
          if (shares === 0n) {
            assert.equal(quote, null);
            assert.ok(quoteBuyShares(s, outcome, 1n).cost > budget);
            return;
          }
          assert.ok(quote && quote.cost <= budget);
          assert.deepEqual(quote, quoteBuyShares(s, outcome, shares));
          assert.ok(quoteBuyShares(s, outcome, shares + 1n).cost > budget);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("sell exit fee rounds up and comes out of the gross; winnings fee rounds up on the payout", () => {
    let s = start(2);
    s = applyTrade(s, 0, 300_000_000n);
    const noFee = quoteSell(s, 0, 100_000_000n, 0);
    const withFee = quoteSell(s, 0, 100_000_000n, 200);
    assert.equal(withFee.proceeds + withFee.fee, noFee.proceeds);
    assert.equal(withFee.fee, (noFee.proceeds * 200n + 9_999n) / 10_000n);
    assert.deepEqual(payout(1_000_000n, 100), { net: 990_000n, fee: 10_000n });
    assert.deepEqual(payout(1n, 1), { net: 0n, fee: 1n });
    assert.deepEqual(payout(5n, 0), { net: 5n, fee: 0n });
    assert.throws(() => quoteSell(s, 1, 1n, 0), RangeError, "cannot sell shares nobody holds");
    assert.throws(() => quoteBuyShares(s, 2, 1n), RangeError);
    assert.throws(() => quoteBuyShares(s, 0, 0n), RangeError);
  });

  it("slippage limits widen the quote in the trader's disfavour and round outward", () => {
    assert.equal(slippageLimit(1_000_000n, 50, "pay"), 1_005_000n);
    assert.equal(slippageLimit(1_000_001n, 50, "pay"), 1_005_002n); // 1005001.005 -> up
    assert.equal(slippageLimit(1_000_001n, 50, "receive"), 995_000n); // 995000.995 -> down
    assert.equal(slippageLimit(7n, 0, "pay"), 7n);
    assert.ok(withinSlippage(1_000_000n, 1_005_000n, 50, "pay"));
    assert.ok(!withinSlippage(1_000_000n, 1_005_001n, 50, "pay"));
    assert.ok(withinSlippage(1_000_000n, 995_000n, 50, "receive"));
    assert.ok(!withinSlippage(1_000_000n, 994_999n, 50, "receive"));
    assert.throws(() => slippageLimit(1n, -1, "pay"), RangeError);
    assert.throws(() => slippageLimit(1n, 1.5, "pay"), RangeError);
  });
});
