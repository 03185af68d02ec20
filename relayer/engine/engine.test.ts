import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { COLLATERAL_ASSET, MatchKind, outcomeAssetId, type MatchOp } from "../../decoder";
import { commandFromJson, commandToJson, opsFromJson, opsToJson, reportFromJson, reportToJson } from "./json";
import { notionalFee, sharesFee } from "./fees";
import { A, B, C, M, PM, SHARE, TREASURY, rejects, replayRoot, setup } from "./test-helpers";
import type { ExecutionReport } from "./types";

const YES = outcomeAssetId(M, 0);
const NO = outcomeAssetId(M, 1);

/** A holds YES, B holds NO (1 share each), minted at 6000/4000. */
function minted(opts: Parameters<typeof setup>[0] = {}) {
  const s = setup(opts);
  s.place(A, { outcome: 0, action: "buy", priceBps: 6000, size: 10n * SHARE });
  s.place(B, { outcome: 1, action: "buy", priceBps: 4000, size: 10n * SHARE });
  return s;
}

describe("engine: matching kinds and prices", () => {
  it("YES buy + NO buy mint a full set at the maker's price; balances equal the op movements", async () => {
    const s = setup({ fee: 100 });
    const r1 = s.place(A, { outcome: 0, action: "buy", priceBps: 6000, size: SHARE });
    assert.equal(r1.ops.length, 0);
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).reserved, 600_000n);
    // B's NO limit 4500 (YES 5500) crosses the YES bid at 6000: B pays only 4000 (price improvement).
    const r2 = s.place(B, { outcome: 1, action: "buy", priceBps: 4500, size: SHARE });
    assert.equal(r2.ops.length, 1);
    const op = r2.ops[0] as MatchOp;
    assert.equal(op.kind, MatchKind.MINT);
    assert.equal(op.side, 0);
    assert.equal(op.priceBps, 6000);
    assert.equal(op.maker, A);
    assert.equal(op.taker, B);
    assert.equal(op.fee, notionalFee(4000, SHARE, 100));
    assert.equal(op.fee, 4_000n);
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).total, 1000n * PM - 600_000n);
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).reserved, 0n);
    assert.equal(s.e.balance(B, COLLATERAL_ASSET).total, 1000n * PM - 400_000n - 4_000n);
    assert.equal(s.e.balance(A, YES).total, SHARE);
    assert.equal(s.e.balance(B, NO).total, SHARE);
    assert.equal(s.e.balance(TREASURY, COLLATERAL_ASSET).total, 4_000n);
    assert.equal(await s.e.ledger.root(), await replayRoot(s.ops));
    for (const acct of [A, B, TREASURY])
      for (const asset of [COLLATERAL_ASSET, YES, NO]) {
        assert.equal(s.e.ledger.balanceOf(acct, asset), s.e.balance(acct, asset).total);
      }
  });

  it("complementary TAKER_BUYS and TAKER_SELLS, MERGE of two sells", () => {
    const s = minted();
    // A sells YES at 6500; C buys YES at 7000 -> TAKER_BUYS at 6500.
    s.place(A, { outcome: 0, action: "sell", priceBps: 6500, size: SHARE });
    assert.equal(s.e.balance(A, YES).reserved, SHARE);
    const buy = s.place(C, { outcome: 0, action: "buy", priceBps: 7000, size: SHARE }).ops[0] as MatchOp;
    assert.deepEqual([buy.kind, buy.side, buy.priceBps, buy.shares], [MatchKind.TAKER_BUYS, 0, 6500, SHARE]);
    // B bids NO at 3000 (YES ask 7000); C sells NO? C has none. A sells... use TAKER_SELLS: C bids YES 5000, A sells YES at 4000.
    s.place(C, { outcome: 0, action: "buy", priceBps: 5000, size: SHARE });
    const sell = s.place(A, { outcome: 0, action: "sell", priceBps: 4000, size: SHARE }).ops[0] as MatchOp;
    assert.deepEqual([sell.kind, sell.side, sell.priceBps, sell.maker], [MatchKind.TAKER_SELLS, 0, 5000, C]);
    // MERGE: A rests a YES sell at 6000; B sells NO at 3000 (YES bid 7000) -> full set burned, B gets 4000/share.
    s.place(A, { outcome: 0, action: "sell", priceBps: 6000, size: SHARE });
    const bBefore = s.e.balance(B, COLLATERAL_ASSET).total;
    const merge = s.place(B, { outcome: 1, action: "sell", priceBps: 3000, size: SHARE }).ops[0] as MatchOp;
    assert.deepEqual([merge.kind, merge.side, merge.priceBps, merge.maker, merge.taker], [MatchKind.MERGE, 0, 6000, A, B]);
    assert.equal(s.e.balance(B, COLLATERAL_ASSET).total - bBefore, 400_000n);
  });

  it("price-time priority, partial fills and maker-price fills across levels", () => {
    const s = minted();
    s.place(A, { outcome: 0, action: "sell", priceBps: 6100, size: SHARE }); // o-3
    s.place(C, { outcome: 1, action: "buy", priceBps: 4000, size: SHARE }); // YES ask 6000, o-4
    s.place(A, { outcome: 0, action: "sell", priceBps: 6000, size: SHARE }); // same level, later, o-5
    const r = s.place(B, { outcome: 0, action: "buy", priceBps: 6100, size: (25n * SHARE) / 10n });
    const fills = (r.ops as MatchOp[]).map((o) => [o.maker, o.priceBps, o.shares, o.kind]);
    assert.deepEqual(fills, [
      [C, 4000, SHARE, MatchKind.MINT],
      [A, 6000, SHARE, MatchKind.TAKER_BUYS],
      [A, 6100, SHARE / 2n, MatchKind.TAKER_BUYS],
    ]);
    assert.equal(s.e.order("o-3")!.status, "partially_filled");
    assert.equal(s.e.order("o-3")!.remainingSize, SHARE / 2n);
    assert.equal(s.e.order("o-6")!.status, "filled");
    const taker = r.reports.filter((x) => x.account === B);
    assert.deepEqual(
      taker.map((x) => [x.kind, x.status, x.fillPriceBps]),
      [
        ["new", "open", undefined],
        ["fill", "partially_filled", 6000],
        ["fill", "partially_filled", 6000],
        ["fill", "filled", 6100],
      ],
    );
    assert.deepEqual(s.e.book(M, 5), { bids: [], asks: [{ priceBps: 6100, size: SHARE / 2n, orders: 1 }] });
  });
});

describe("engine: fees", () => {
  it("notional-v1 and shares-v2 formulas round up", () => {
    assert.equal(notionalFee(5000, 10_000n, 100), 50n);
    assert.equal(notionalFee(3333, 10_000n, 7), 3n); // 2.3331 -> 3
    assert.equal(sharesFee(9000, 1_000_000n, 200), 2000n); // 200 * 1000 * 1e6 / 1e8
    assert.equal(sharesFee(1000, 1_000_000n, 200), 2000n);
  });
  it("shares-v2 market charges the taker only", () => {
    const s = minted({ fee: 200, feeModel: "shares-v2" });
    s.place(A, { outcome: 0, action: "sell", priceBps: 9000, size: SHARE });
    const op = s.place(C, { outcome: 0, action: "buy", priceBps: 9000, size: SHARE }).ops[0] as MatchOp;
    assert.equal(op.fee, 2000n);
  });
});

describe("engine: time in force, post-only, STP", () => {
  it("IOC fills what it can and cancels the rest; FOK is all-or-nothing", () => {
    const s = minted();
    s.place(A, { outcome: 0, action: "sell", priceBps: 6000, size: SHARE });
    const ioc = s.place(C, { outcome: 0, action: "buy", priceBps: 6000, size: 2n * SHARE, tif: "IOC" });
    assert.equal(ioc.ops.length, 1);
    assert.deepEqual(ioc.result.status, "cancelled");
    assert.equal(ioc.reports.at(-1)!.reason, "ioc_remainder");
    assert.equal(s.e.balance(C, COLLATERAL_ASSET).reserved, 0n);
    s.place(A, { outcome: 0, action: "sell", priceBps: 6000, size: SHARE });
    const fok = s.place(C, { outcome: 0, action: "buy", priceBps: 6000, size: 2n * SHARE, tif: "FOK" });
    assert.equal(fok.ops.length, 0);
    assert.equal(fok.result.status, "cancelled");
    assert.equal(s.e.book(M, 1)!.asks[0]!.size, SHARE);
    const fok2 = s.place(C, { outcome: 0, action: "buy", priceBps: 6000, size: SHARE, tif: "FOK" });
    assert.equal(fok2.result.status, "filled");
  });

  it("post-only is refused when it would cross and changes nothing", async () => {
    const s = minted();
    s.place(A, { outcome: 0, action: "sell", priceBps: 6000, size: SHARE });
    const root = await s.e.ledger.root();
    rejects(s.tryPlace(C, { outcome: 0, action: "buy", priceBps: 6000, size: SHARE, postOnly: true }), "POST_ONLY_WOULD_CROSS");
    assert.equal(s.e.openOrders(C).length, 0);
    assert.equal(await s.e.ledger.root(), root);
    const ok2 = s.place(C, { outcome: 0, action: "buy", priceBps: 5999, size: SHARE, postOnly: true });
    assert.equal(ok2.result.status, "open");
  });

  it("GTD orders expire once `at` passes expiresAt and release their lock", () => {
    const s = setup();
    s.place(A, { outcome: 0, action: "buy", priceBps: 5000, size: SHARE, tif: "GTD", expiresAt: 5_000 }, 1_000);
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).reserved, 500_000n);
    const r = s.run({ type: "credit", account: C, amount: 1n, reason: "GRANT" }, 5_000);
    assert.deepEqual(
      r.reports.map((x) => [x.account, x.kind, x.status]),
      [[A, "expired", "expired"]],
    );
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).reserved, 0n);
    assert.deepEqual(s.e.book(M, 5), { bids: [], asks: [] });
  });

  it("self-trade prevention cancels the resting order of the same account and keeps matching", () => {
    const s = minted();
    s.place(A, { outcome: 0, action: "sell", priceBps: 6000, size: SHARE }); // o-3
    s.place(C, { outcome: 1, action: "buy", priceBps: 3900, size: SHARE }); // YES ask 6100
    s.run({ type: "credit", account: A, amount: 10n * PM, reason: "GRANT" });
    const r = s.place(A, { outcome: 0, action: "buy", priceBps: 6100, size: SHARE });
    assert.equal(s.e.order("o-3")!.status, "cancelled");
    assert.equal(r.reports.find((x) => x.orderId === "o-3")!.reason, "self_trade_prevention");
    assert.equal((r.ops[0] as MatchOp).maker, C);
    assert.equal(s.e.balance(A, YES).reserved, 0n);
  });
});

describe("engine: reservations and atomicity", () => {
  it("a buy locks price x size, a sell locks shares; over-commitment is refused and changes nothing", async () => {
    const s = setup({ funds: PM });
    s.place(A, { outcome: 0, action: "buy", priceBps: 5000, size: SHARE });
    assert.deepEqual(s.e.balance(A, COLLATERAL_ASSET), { assetId: 0n, total: PM, reserved: 500_000n, available: 500_000n });
    const root = await s.e.ledger.root();
    const e = rejects(s.tryPlace(A, { outcome: 1, action: "buy", priceBps: 4000, size: 2n * SHARE }), "INSUFFICIENT_BALANCE");
    assert.deepEqual(e.details, { account: A, assetId: "0", shortBy: "300000" });
    assert.equal(s.e.openOrders(A).length, 1);
    assert.equal(await s.e.ledger.root(), root);
    rejects(s.tryPlace(B, { outcome: 0, action: "sell", priceBps: 5000, size: SHARE }), "INSUFFICIENT_BALANCE");
    // The next order id is unchanged by the rejections.
    const ok = s.place(B, { outcome: 1, action: "buy", priceBps: 5000, size: SHARE });
    assert.equal(ok.ops.length, 1);
    assert.equal(ok.result.orderId, "o-2");
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).available, 500_000n);
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).reserved, 0n);
  });

  it("a taker whose fills it cannot pay is refused as a whole (no partial effects)", () => {
    const s = minted({ funds: 10n * PM });
    s.place(A, { outcome: 0, action: "sell", priceBps: 6000, size: 10n * SHARE });
    const seqBefore = s.e.allowance(C, s.now());
    rejects(s.tryPlace(C, { outcome: 0, action: "buy", priceBps: 6000, size: 20n * SHARE }), "INSUFFICIENT_BALANCE");
    assert.equal(s.e.book(M, 1)!.asks[0]!.size, 10n * SHARE);
    assert.deepEqual(s.e.allowance(C, s.now()), seqBefore);
    const r = s.place(C, { outcome: 0, action: "buy", priceBps: 6000, size: SHARE });
    // The refused command used no report sequence numbers.
    assert.deepEqual(
      r.reports.filter((x) => x.account === C).map((x) => x.seq),
      [1, 2],
    );
  });

  it("rejects bad fields with INVALID_PAYLOAD", () => {
    const s = setup();
    rejects(s.tryPlace(A, { outcome: 0, action: "buy", priceBps: 0, size: SHARE }), "INVALID_PAYLOAD");
    rejects(s.tryPlace(A, { outcome: 0, action: "buy", priceBps: 10_000, size: SHARE }), "INVALID_PAYLOAD");
    rejects(s.tryPlace(A, { outcome: 0, action: "buy", priceBps: 5000, size: 12_345n }), "INVALID_PAYLOAD");
    rejects(s.tryPlace(A, { outcome: 0, action: "buy", priceBps: 5000, size: SHARE, tif: "GTD" }), "INVALID_PAYLOAD");
    rejects(
      s.attempt({ type: "placeOrder", account: A, marketId: 9n, outcome: 0, action: "buy", priceBps: 5000, size: SHARE, tif: "GTC" }),
      "MARKET_NOT_FOUND",
    );
  });

  it("placeOrders is all-or-nothing; replaceQuotes swaps the quote set atomically", () => {
    const s = setup({ funds: PM });
    rejects(
      s.attempt({
        type: "placeOrders",
        account: A,
        marketId: M,
        orders: [
          { outcome: 0, action: "buy", priceBps: 4000, size: SHARE, tif: "GTC" },
          { outcome: 0, action: "buy", priceBps: 7000, size: SHARE, tif: "GTC" }, // 0.4 + 0.7 > 1 PM
        ],
      }),
      "INSUFFICIENT_BALANCE",
    );
    assert.equal(s.e.openOrders(A).length, 0);
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).reserved, 0n);
    s.run({
      type: "placeOrders",
      account: A,
      marketId: M,
      orders: [
        { outcome: 0, action: "buy", priceBps: 4000, size: SHARE, tif: "GTC", clientOrderId: "q1" },
        { outcome: 1, action: "buy", priceBps: 5000, size: SHARE, tif: "GTC", clientOrderId: "q2" },
      ],
    });
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).reserved, 900_000n);
    // Replacing frees the old locks first, so a set that needs them fits.
    const r = s.run({
      type: "replaceQuotes",
      account: A,
      marketId: M,
      orders: [{ outcome: 0, action: "buy", priceBps: 9000, size: SHARE, tif: "GTC" }],
    });
    assert.deepEqual(r.result.cancelled, ["o-1", "o-2"]);
    assert.deepEqual(
      s.e.openOrders(A).map((o) => o.priceBps),
      [9000],
    );
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).reserved, 900_000n);
  });

  it("a retried clientOrderId returns the same order; different fields conflict", () => {
    const s = setup();
    const spec = { outcome: 0 as const, action: "buy" as const, priceBps: 5000, size: SHARE, clientOrderId: "c-1" };
    const first = s.place(A, spec);
    const again = s.place(A, spec);
    assert.deepEqual(again.result, first.result);
    assert.equal(again.reports.length, 0);
    assert.equal(s.e.openOrders(A).length, 1);
    assert.deepEqual(rejects(s.tryPlace(A, { ...spec, priceBps: 5001 }), "CLIENT_ORDER_ID_REUSED").details, { orderId: "o-1" });
    // Another account may use the same client id.
    s.place(B, spec);
    assert.equal(s.e.openOrders(B).length, 1);
  });

  it("cancelOrder by id or client id, cancelAll per market; reports are gap-free per account", () => {
    const s = setup();
    s.place(A, { outcome: 0, action: "buy", priceBps: 5000, size: SHARE, clientOrderId: "x" });
    s.place(A, { outcome: 0, action: "buy", priceBps: 4000, size: SHARE });
    s.place(A, { outcome: 1, action: "buy", priceBps: 4000, size: SHARE });
    const c1 = s.run({ type: "cancelOrder", account: A, clientOrderId: "x" });
    assert.equal(c1.result.status, "cancelled");
    rejects(s.attempt({ type: "cancelOrder", account: B, orderId: "o-2" }), "ORDER_NOT_FOUND");
    const all = s.run({ type: "cancelAll", account: A, marketId: M });
    assert.deepEqual(all.result.cancelled, ["o-2", "o-3"]);
    assert.deepEqual(
      all.reports.map((r) => r.seq),
      [5, 6],
    );
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).reserved, 0n);
    // Cancelling a cancelled order again is a no-op that returns it.
    assert.equal(s.run({ type: "cancelOrder", account: A, orderId: "o-2" }).reports.length, 0);
  });
});

describe("engine: fill allowance", () => {
  it("counts one wallet-side per fill per side, refuses new orders at zero, allows full closes and credits", () => {
    const week = 7 * 86_400_000;
    const s = setup({ allowance: { enabled: true, freePerPeriod: 2, periodMs: week } });
    s.place(A, { outcome: 0, action: "buy", priceBps: 5000, size: 3n * SHARE });
    s.place(B, { outcome: 1, action: "buy", priceBps: 5000, size: SHARE });
    s.place(B, { outcome: 1, action: "buy", priceBps: 5000, size: SHARE });
    let al = s.e.allowance(B, s.now());
    assert.deepEqual([al.freeUsed, al.freeRemaining, al.remaining], [2, 0, 0]);
    const e = rejects(s.tryPlace(B, { outcome: 1, action: "buy", priceBps: 5000, size: SHARE }), "FILL_ALLOWANCE_EXHAUSTED");
    assert.deepEqual(e.details.allowance, s.e.allowance(B, s.now()));
    // A's resting order keeps working although A is at zero too.
    assert.equal(s.e.allowance(A, s.now()).remaining, 0);
    s.place(C, { outcome: 1, action: "buy", priceBps: 5000, size: SHARE });
    assert.equal(s.e.allowance(A, s.now()).freeUsed, 3);
    // Full-position close: B sells all its NO.
    s.place(C, { outcome: 1, action: "buy", priceBps: 4000, size: 2n * SHARE });
    rejects(s.tryPlace(B, { outcome: 1, action: "sell", priceBps: 4000, size: SHARE }), "FILL_ALLOWANCE_EXHAUSTED");
    s.place(B, { outcome: 1, action: "sell", priceBps: 4000, size: 2n * SHARE });
    assert.equal(s.e.balance(B, NO).total, 0n);
    // Purchased credits sit on top and are used after the free ones.
    s.run({ type: "addFillCredits", account: B, fills: 1 });
    al = s.e.allowance(B, s.now());
    assert.deepEqual([al.freeRemaining, al.paidRemaining, al.remaining], [0, 1, 1]);
    // The next fixed week (anchored at signupAt 0) resets the free part only.
    al = s.e.allowance(B, week + 1);
    assert.deepEqual([al.freeUsed, al.freeRemaining, al.paidRemaining, al.periodStartsAt, al.periodEndsAt], [0, 2, 1, week, 2 * week]);
  });
});

describe("engine: resolution and void", () => {
  it("resolution cancels resting orders, pays winners minus the exit fee, burns losers", async () => {
    const s = setup();
    s.run({
      type: "createMarket",
      marketId: 2n,
      pricing: "ORDERBOOK",
      outcomes: 2,
      feeModel: "notional-v1",
      takerFeeBps: 0,
      sellExitFeeBps: 0,
      winningsExitFeeBps: 100,
    });
    const order = (account: typeof A, outcome: 0 | 1, priceBps: number) => ({
      type: "placeOrder" as const,
      account,
      marketId: 2n,
      outcome,
      action: "buy" as const,
      priceBps,
      size: SHARE,
      tif: "GTC" as const,
    });
    const place = (account: typeof A, outcome: 0 | 1, priceBps: number) => s.run(order(account, outcome, priceBps));
    place(A, 0, 6000);
    place(B, 1, 4000);
    place(C, 0, 1000);
    const r = s.run({ type: "resolveMarket", marketId: 2n, winningOutcome: 0 });
    assert.equal(s.e.balance(C, COLLATERAL_ASSET).reserved, 0n);
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).total, 1000n * PM - 600_000n + 990_000n);
    assert.equal(s.e.balance(B, COLLATERAL_ASSET).total, 1000n * PM - 400_000n);
    assert.equal(s.e.balance(TREASURY, COLLATERAL_ASSET).total, 10_000n);
    assert.equal(s.e.ledger.totalOf(outcomeAssetId(2n, 0)), 0n);
    assert.equal(s.e.balance(B, outcomeAssetId(2n, 1)).total, 0n);
    assert.ok(r.reports.some((x) => x.account === C && x.reason === "market_closed"));
    rejects(s.attempt(order(A, 0, 5000)), "MARKET_CLOSED");
    assert.equal(await s.e.ledger.root(), await replayRoot(s.ops));
  });

  it("void refunds half a unit per share", () => {
    const s = minted();
    s.run({ type: "voidMarket", marketId: M });
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).total, 1000n * PM - 6n * PM + 5n * PM);
    assert.equal(s.e.balance(B, COLLATERAL_ASSET).total, 1000n * PM - 4n * PM + 5n * PM);
    assert.equal(s.e.market(M)!.status, "voided");
  });
});

describe("engine: JSON forms", () => {
  it("commands, ops and reports round-trip with bigint as strings", () => {
    const s = minted();
    const cmd = {
      type: "placeOrder" as const,
      account: A,
      marketId: M,
      outcome: 0 as const,
      action: "sell" as const,
      priceBps: 6000,
      size: SHARE,
      tif: "GTC" as const,
    };
    assert.deepEqual(commandFromJson(commandToJson(cmd)), cmd);
    assert.match(commandToJson(cmd), /"size":"1000000"/);
    assert.deepEqual(opsFromJson(opsToJson(s.ops)), s.ops);
    const rep: ExecutionReport = s.place(C, { outcome: 0, action: "buy", priceBps: 6000, size: SHARE }).reports[0]!;
    assert.deepEqual(reportFromJson(reportToJson(rep)), rep);
  });
});

describe("engine: LMSR markets (relayer/pricing/lmsr.ts)", () => {
  it("seeds the pool, trades against it at the pricing module's quotes, resolves from the pool and returns the residual", async () => {
    const { quoteBuyShares, quoteSell, bFromSeed } = await import("../pricing/lmsr");
    const { poolAccountOf } = await import("../../decoder");
    const s = setup();
    const id = 7n;
    const pool = poolAccountOf(id);
    s.run({
      type: "createMarket",
      marketId: id,
      pricing: "LMSR",
      outcomes: 2,
      feeModel: "notional-v1",
      takerFeeBps: 0,
      sellExitFeeBps: 100,
      winningsExitFeeBps: 200,
      seed: 100n * PM,
      funder: C,
    });
    assert.equal(s.e.balance(pool, COLLATERAL_ASSET).total, 100n * PM);
    assert.equal(s.e.balance(C, COLLATERAL_ASSET).total, 900n * PM);
    const b = bFromSeed(100n * PM, 2);
    const expected = quoteBuyShares({ b, q: [0n, 0n] }, 0, 50n * SHARE).cost;
    assert.equal(s.e.lmsrQuote(id, 0, "BUY", 50n * SHARE)!.collateral, expected);
    rejects(s.attempt({ type: "lmsrTrade", account: A, marketId: id, outcome: 0, direction: "BUY", shares: 50n * SHARE, limit: expected - 1n }), "SLIPPAGE");
    const buy = s.run({ type: "lmsrTrade", account: A, marketId: id, outcome: 0, direction: "BUY", shares: 50n * SHARE, limit: expected });
    assert.equal(buy.ops[0]!.type, "LMSR_TRADE");
    assert.equal(s.e.balance(A, outcomeAssetId(id, 0)).total, 50n * SHARE);
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).total, 1000n * PM - expected);
    assert.equal(buy.reports[0]!.kind, "fill");
    const sq = quoteSell({ b, q: [50n * SHARE, 0n] }, 0, 10n * SHARE, 100);
    const sell = s.run({ type: "lmsrTrade", account: A, marketId: id, outcome: 0, direction: "SELL", shares: 10n * SHARE });
    assert.equal(sell.result.collateral, sq.proceeds);
    assert.equal(s.e.balance(TREASURY, COLLATERAL_ASSET).total, sq.fee);
    rejects(s.attempt({ type: "lmsrTrade", account: B, marketId: id, outcome: 0, direction: "SELL", shares: SHARE }), "INSUFFICIENT_BALANCE");
    rejects(s.attempt({ type: "placeOrder", account: A, marketId: id, outcome: 0, action: "buy", priceBps: 5000, size: SHARE, tif: "GTC" }), "INVALID_PAYLOAD");
    const r = s.run({ type: "resolveMarket", marketId: id, winningOutcome: 0 });
    const fee = (40n * SHARE * 200n + 9_999n) / 10_000n;
    assert.equal(r.result.fees, fee);
    assert.equal(s.e.balance(pool, COLLATERAL_ASSET).total, 0n);
    assert.ok(r.result.residual > 0n);
    for (const asset of [COLLATERAL_ASSET, outcomeAssetId(id, 0), outcomeAssetId(id, 1)]) assert.equal(s.e.ledger.totalOf(asset), 0n);
    assert.equal(await s.e.ledger.root(), await replayRoot(s.ops));
  });
});

describe("engine: determinism", () => {
  it("the same commands at the same instants give the same results, ops, reports and root", async () => {
    const script = (s: ReturnType<typeof setup>) => {
      const out: unknown[] = [];
      const tryRun = (r: unknown) => out.push(r);
      for (let i = 0; i < 40; i++) {
        const who = [A, B, C][i % 3]!;
        tryRun(
          s.tryPlace(
            who,
            {
              outcome: (i % 2) as 0 | 1,
              action: i % 5 === 0 ? "sell" : "buy",
              priceBps: 4500 + ((i * 37) % 1000),
              size: BigInt(1 + (i % 4)) * 10_000n,
              tif: i % 7 === 0 ? "IOC" : i % 11 === 0 ? "GTD" : "GTC",
              ...(i % 11 === 0 ? { expiresAt: 1_000 + i * 10 } : {}),
            },
            1_000 + i * 5,
          ),
        );
        if (i % 6 === 5) tryRun(s.attempt({ type: "cancelOrder", account: who, orderId: `o-${i - 3}` }, 1_000 + i * 5));
      }
      return out;
    };
    const s1 = setup({ fee: 30 });
    const s2 = setup({ fee: 30 });
    assert.deepEqual(script(s1), script(s2));
    assert.deepEqual(s1.ops, s2.ops);
    assert.equal(await s1.e.ledger.root(), await s2.e.ledger.root());
    assert.ok(s1.ops.some((o) => o.type === "MATCH"));
  });
});
