import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { COLLATERAL_ASSET } from "../../decoder";
import { A, B, M, SHARE, rejects, setup } from "./test-helpers";
import type { Command, OrderView } from "./types";
import type { Engine } from "./engine";

/** An IOC buy that meets nothing: accepted, finished at once (cancelled, ioc_remainder). */
const ioc = (clientOrderId?: string) =>
  ({ outcome: 0, action: "buy", priceBps: 100, size: SHARE, tif: "IOC", ...(clientOrderId ? { clientOrderId } : {}) }) as const;

describe("engine: retention of finished orders (docs/engine.md#retention)", () => {
  it("keeps an account's last keepFinished finished orders; the older ones and their clientOrderIds are forgotten", () => {
    const s = setup({ keepFinished: 2 });
    const ids = ["c1", "c2", "c3"].map((cid) => s.place(A, ioc(cid)).result.orderId);
    assert.equal(s.e.order(ids[0]!), undefined);
    assert.equal(s.e.orderByClientId(A, "c1"), undefined);
    assert.equal(s.e.order(ids[1]!)?.status, "cancelled");
    assert.equal(s.e.orderByClientId(A, "c3")?.orderId, ids[2]);
    // A held clientOrderId still dedupes (same fields: the same order, no reports) and still refuses other fields.
    const again = s.place(A, ioc("c3"));
    assert.equal(again.result.orderId, ids[2]);
    assert.equal(again.reports.length, 0);
    rejects(s.tryPlace(A, { ...ioc("c2"), priceBps: 200 }), "CLIENT_ORDER_ID_REUSED");
    // The forgotten one is free again: a new order.
    const reused = s.place(A, { ...ioc("c1"), priceBps: 200 });
    assert.notEqual(reused.result.orderId, ids[0]);
    assert.equal(s.e.orderByClientId(A, "c1")?.orderId, reused.result.orderId);
    // Cancelling a forgotten order answers as for an unknown one.
    rejects(s.attempt({ type: "cancelOrder", account: A, orderId: ids[0]! }), "ORDER_NOT_FOUND");
  });

  it("never forgets a resting order, however many orders finish after it; it finishes into the window", () => {
    const s = setup({ keepFinished: 1 });
    const rest = s.place(A, { outcome: 0, action: "buy", priceBps: 100, size: SHARE, clientOrderId: "rest" }).result.orderId;
    for (let i = 0; i < 5; i++) s.place(A, ioc());
    assert.equal(s.e.order(rest)?.status, "open");
    assert.equal(s.e.orderByClientId(A, "rest")?.orderId, rest);
    s.run({ type: "cancelOrder", account: A, orderId: rest });
    assert.equal(s.e.order(rest)?.status, "cancelled"); // the newest finished one now
    s.place(A, ioc());
    assert.equal(s.e.order(rest), undefined);
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).reserved, 0n);
  });

  it("counts per account: one busy account does not push out another's finished orders", () => {
    const s = setup({ keepFinished: 2 });
    const b = s.place(B, ioc("b")).result.orderId;
    for (let i = 0; i < 10; i++) s.place(A, ioc());
    assert.equal(s.e.order(b)?.status, "cancelled");
    assert.equal(s.e.orderByClientId(B, "b")?.orderId, b);
  });

  it("a filled maker and a filled taker both enter their accounts' windows", () => {
    const s = setup({ keepFinished: 1 });
    const maker = s.place(A, { outcome: 0, action: "buy", priceBps: 6000, size: SHARE }).result.orderId;
    const taker = s.place(B, { outcome: 1, action: "buy", priceBps: 4000, size: SHARE }).result.orderId;
    assert.equal(s.e.order(maker)?.status, "filled");
    assert.equal(s.e.order(taker)?.status, "filled");
    s.place(A, ioc());
    s.place(B, ioc());
    assert.equal(s.e.order(maker), undefined);
    assert.equal(s.e.order(taker), undefined);
  });

  it("a refused command forgets nothing; a rebuild from the same commands holds the same orders", () => {
    const s = setup({ keepFinished: 3 });
    const log: [Command, number][] = [];
    const run = (c: Command) => {
      const r = s.attempt(c);
      log.push([c, s.now()]);
      return r;
    };
    for (let i = 0; i < 40; i++) {
      const acct = i % 3 === 0 ? B : A;
      if (i % 7 === 0)
        run({ type: "placeOrder", account: acct, marketId: M, outcome: 0, action: "buy", priceBps: 100, size: SHARE, tif: "GTC", clientOrderId: `r${i}` });
      else if (i % 5 === 0)
        rejects(
          run({ type: "placeOrder", account: acct, marketId: M, outcome: 0, action: "buy", priceBps: 100, size: 200_000n * SHARE, tif: "GTC" }),
          "INSUFFICIENT_BALANCE",
        );
      else run({ type: "placeOrder", account: acct, marketId: M, ...ioc(`i${i}`) });
      if (i % 11 === 0) run({ type: "cancelAll", account: acct });
    }
    // The same setup and commands into a fresh engine: what a rebuild from the journal does.
    const replayed = setup({ keepFinished: 3 }).e;
    for (const [c, at] of log) replayed.apply(c, at);
    const all = (e: Engine) => Array.from({ length: 60 }, (_, n): OrderView | undefined => e.order(`o-${n + 1}`));
    assert.deepEqual(all(replayed), all(s.e));
    const held = all(s.e).filter((v) => v !== undefined);
    // Each account holds its resting orders plus its last 3 finished ones.
    for (const acct of [A, B]) assert.equal(held.filter((v) => v!.account === acct && v!.status !== "open").length, 3);
  });

  it("orders far below the newest number stay reachable after the window array moves on", () => {
    const s = setup({ keepFinished: 0 });
    const rest = s.place(A, { outcome: 0, action: "buy", priceBps: 100, size: SHARE }).result.orderId;
    let last = "";
    for (let i = 0; i < 140_000; i++) last = s.place(B, ioc()).result.orderId;
    assert.equal(last, "o-140001");
    assert.equal(s.e.order(rest)?.status, "open");
    assert.equal(s.e.order("o-2"), undefined);
    assert.equal(s.e.order(last), undefined); // keepFinished 0: forgotten as it finishes
    s.run({ type: "cancelOrder", account: A, orderId: rest });
    assert.equal(s.e.order(rest), undefined);
    // Numbering goes on, and a refused placement after the move leaves the next number unused.
    rejects(s.tryPlace(A, { outcome: 0, action: "buy", priceBps: 100, size: 200_000n * SHARE }), "INSUFFICIENT_BALANCE");
    assert.equal(s.place(A, { outcome: 0, action: "buy", priceBps: 100, size: SHARE }).result.orderId, "o-140002");
    assert.equal(s.e.order("o-140002")?.status, "open");
  });
});
