import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { A, B, C, M, SHARE, setup } from "./test-helpers";

describe("engine: levelSizes, one level's resting orders in time priority", () => {
  it("answers the remaining sizes of a level oldest first, in YES terms, after partial fills and cancels", () => {
    const s = setup();
    // Bids at YES 4000 (YES buys of A, C, B in that order); asks at YES 6000 (NO buys at 4000 of B, then A).
    s.place(A, { outcome: 0, action: "buy", priceBps: 4000, size: 3n * SHARE });
    s.place(C, { outcome: 0, action: "buy", priceBps: 4000, size: 5n * SHARE });
    const b1 = s.place(B, { outcome: 0, action: "buy", priceBps: 4000, size: 7n * SHARE }).result.orderId;
    s.place(B, { outcome: 1, action: "buy", priceBps: 4000, size: 2n * SHARE });
    s.place(A, { outcome: 1, action: "buy", priceBps: 4000, size: 4n * SHARE });
    assert.deepEqual(s.e.levelSizes(M, "bids", 4000), [3n * SHARE, 5n * SHARE, 7n * SHARE]);
    assert.deepEqual(s.e.levelSizes(M, "asks", 6000), [2n * SHARE, 4n * SHARE]);
    assert.equal(s.e.book(M)!.bids[0]!.orders, 3);

    // A NO buy at 6000 mints against the bids at 4000 in time priority: A's 3 whole, C's 5 in part.
    s.place(B, { outcome: 1, action: "buy", priceBps: 6000, size: 4n * SHARE });
    assert.deepEqual(s.e.levelSizes(M, "bids", 4000), [4n * SHARE, 7n * SHARE]);
    s.run({ type: "cancelOrder", account: B, orderId: b1 });
    assert.deepEqual(s.e.levelSizes(M, "bids", 4000), [4n * SHARE]);
  });

  it("is empty for an empty level or a price off the book, and undefined for an unknown market", () => {
    const s = setup();
    assert.deepEqual(s.e.levelSizes(M, "asks", 5000), []);
    assert.deepEqual(s.e.levelSizes(M, "bids", 0), []);
    assert.deepEqual(s.e.levelSizes(M, "asks", 10_000), []);
    assert.equal(s.e.levelSizes(99n, "bids", 5000), undefined);
  });
});
