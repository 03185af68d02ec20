import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { takerFee } from "../../../relayer/engine";
import { walkBook, type TakerLevel } from "./book-walk";

const fee = (priceBps: number, size: bigint) => takerFee("shares-v2", priceBps, size, 149);

describe("walkBook", () => {
  const levels: TakerLevel[] = [
    { priceBps: 4833, sizes: [30_000n, 70_000n, 10_000n] },
    { priceBps: 5171, sizes: [90_000n, 130_000n] },
  ];

  it("charges the fee order by order, as the engine fills, not once per level", () => {
    const w = walkBook(levels, { side: "buy", shares: 150_000n, slippageBps: 100 }, fee);
    const perOrder = fee(4833, 30_000n) + fee(4833, 70_000n) + fee(4833, 10_000n) + fee(5171, 40_000n);
    assert.equal(w.fee, perOrder);
    assert.notEqual(w.fee, fee(4833, 110_000n) + fee(5171, 40_000n), "the per-level sum rounds differently here");
    assert.deepEqual([w.filled, w.notional, w.best, w.worst, w.limit], [150_000n, 53_163n + 20_684n, 4833, 5171, 5223]);
  });

  it("stops at the bound and at what the book holds; an empty side has no prices", () => {
    const bounded = walkBook(levels, { side: "buy", shares: 150_000n, slippageBps: 0 }, fee, 5000);
    assert.deepEqual([bounded.filled, bounded.worst, bounded.limit], [110_000n, 4833, 4833]);
    const thin = walkBook(levels, { side: "buy", shares: 1_000_000n, slippageBps: 0 }, fee);
    assert.equal(thin.filled, 330_000n);
    const empty = walkBook([], { side: "sell", shares: 10_000n, slippageBps: 100 }, fee);
    assert.deepEqual([empty.filled, empty.fee, empty.best, empty.worst, empty.limit], [0n, 0n, null, null, null]);
  });

  it("moves a sell's limit down by the slippage, never below 1", () => {
    assert.equal(walkBook([{ priceBps: 4717, sizes: [10_000n] }], { side: "sell", shares: 10_000n, slippageBps: 100 }, fee).limit, 4669);
    assert.equal(walkBook([{ priceBps: 1, sizes: [10_000n] }], { side: "sell", shares: 10_000n, slippageBps: 1000 }, fee).limit, 1);
  });
});
