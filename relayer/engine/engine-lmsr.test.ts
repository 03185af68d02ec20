/**
 * LMSR markets of the committed ledger (binary: a ternary market trades on the onchain lane): creation
 * (b = seed / ln 2), trades by shares and by budget on both outcomes with slippage limits, quotes, resolution with
 * the winnings exit fee and the pool residual, void refunds of floor(shares / 2), and replay of the emitted ops
 * through the PMJ5 codec to the engine's root.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { COLLATERAL_ASSET, outcomeAssetId, poolAccountOf, stringifyJson, type OutcomeIndex } from "../../decoder";
import { bFromSeed, payout, prices, quoteBuyForCost, quoteBuyShares, quoteSell, type LmsrState } from "../pricing/lmsr";
import { A, B, C, PM, SHARE, TREASURY, rejects, replayRoot, setup } from "./test-helpers";
import type { CreateMarketCommand, LmsrTradeCommand } from "./types";

const ID = 9n;
const SEED = 100n * PM;
const POOL = poolAccountOf(ID);
const asset = (i: OutcomeIndex) => outcomeAssetId(ID, i);

const lmsrMarket = (over: Partial<CreateMarketCommand> = {}): CreateMarketCommand => ({
  type: "createMarket",
  marketId: ID,
  pricing: "LMSR",
  outcomes: 2,
  feeModel: "notional-v1",
  takerFeeBps: 0,
  sellExitFeeBps: 100,
  winningsExitFeeBps: 200,
  seed: SEED,
  funder: C,
  ...over,
});

/** Market 9: binary LMSR funded by C. */
function binary() {
  const s = setup();
  s.run(lmsrMarket());
  const state = (): LmsrState => {
    const l = s.e.market(ID)!.lmsr!;
    return { b: l.b, q: [...l.q] };
  };
  type Size = { shares?: bigint; budget?: bigint; limit?: bigint };
  const command = (account: typeof A, outcome: OutcomeIndex, direction: "BUY" | "SELL", x: Size): LmsrTradeCommand => ({
    type: "lmsrTrade",
    account,
    marketId: ID,
    outcome,
    direction,
    ...x,
  });
  const trade = (account: typeof A, outcome: OutcomeIndex, direction: "BUY" | "SELL", x: Size) => s.run(command(account, outcome, direction, x));
  const tryTrade = (account: typeof A, outcome: OutcomeIndex, direction: "BUY" | "SELL", x: Size) => s.attempt(command(account, outcome, direction, x));
  return { ...s, state, trade, tryTrade };
}

function conserved(s: ReturnType<typeof binary>): void {
  for (const a of [COLLATERAL_ASSET, asset(0), asset(1)]) assert.equal(s.e.ledger.totalOf(a), 0n, `asset ${a} not conserved`);
}

describe("engine: LMSR markets of the committed ledger", () => {
  it("creates a binary market with b = seed / ln 2 and refuses other outcome counts clearly (ternary: onchain lane only)", () => {
    const s = setup();
    rejects(
      s.attempt(lmsrMarket({ pricing: "ORDERBOOK", outcomes: 3, seed: undefined, funder: undefined })),
      "INVALID_PAYLOAD",
      /ORDERBOOK markets are binary/,
    );
    assert.equal(rejects(s.attempt(lmsrMarket({ outcomes: 3 })), "INVALID_PAYLOAD", /committed ledger is binary/).details.field, "outcomes");
    rejects(s.attempt(lmsrMarket({ outcomes: 4 })), "INVALID_PAYLOAD", /2 or 3 outcomes/);
    rejects(s.attempt(lmsrMarket({ outcomes: 1 })), "INVALID_PAYLOAD", /2 or 3 outcomes/);
    rejects(s.attempt(lmsrMarket({ outcomes: 2.5 })), "INVALID_PAYLOAD");
    assert.equal(s.e.market(ID), undefined);
    const r = s.run(lmsrMarket());
    assert.deepEqual(r.ops, [{ type: "MARKET_SEED", marketId: ID, funder: C, amount: SEED }]);
    const view = s.e.market(ID)!;
    assert.equal(view.outcomes, 2);
    assert.equal(view.lmsr!.b, bFromSeed(SEED, 2));
    assert.deepEqual(view.lmsr!.q, [0n, 0n]);
    assert.equal(view.lmsr!.pricesWad.length, 2);
    for (const p of view.lmsr!.pricesWad) assert.equal(p, view.lmsr!.pricesWad[0]);
    assert.equal(s.e.balance(POOL, COLLATERAL_ASSET).total, SEED);
  });

  it("buys and sells every outcome at the pricing module's integers, by shares or by budget, within the limit", async () => {
    const s = binary();
    // BUY outcome 1 by shares: the cost is quoteBuyShares, the quote says the same, the limit is a max cost.
    const cost = quoteBuyShares(s.state(), 1, 30n * SHARE).cost;
    assert.deepEqual(s.e.lmsrQuote(ID, 1, "BUY", 30n * SHARE), {
      shares: 30n * SHARE,
      collateral: cost,
      fee: 0n,
      priceAfterWad: quoteBuyShares(s.state(), 1, 30n * SHARE).priceAfter,
    });
    const slip = rejects(s.tryTrade(A, 1, "BUY", { shares: 30n * SHARE, limit: cost - 1n }), "SLIPPAGE");
    assert.deepEqual(slip.details, { cost: cost.toString() });
    const buy = s.trade(A, 1, "BUY", { shares: 30n * SHARE, limit: cost });
    assert.deepEqual(buy.ops, [{ type: "LMSR_TRADE", account: A, marketId: ID, side: 1, direction: "BUY", shares: 30n * SHARE, collateral: cost, fee: 0n }]);
    assert.equal(buy.reports[0]!.outcome, 1);
    assert.equal(s.e.balance(A, asset(1)).total, 30n * SHARE);
    assert.equal(s.e.balance(POOL, COLLATERAL_ASSET).total, SEED + cost);
    const p = s.e.market(ID)!.lmsr!.pricesWad;
    assert.ok(p[1]! > p[0]!, "buying outcome 1 raises its price");
    assert.deepEqual(p, prices(s.state()));

    // BUY outcome 0 by budget: the most shares that fit, exactly what lmsrQuoteForCost announced.
    const budget = 7n * PM;
    const expect = quoteBuyForCost(s.state(), 0, budget);
    const quote = s.e.lmsrQuoteForCost(ID, 0, budget)!;
    assert.equal(quote.shares, expect.shares);
    assert.equal(quote.collateral, expect.quote!.cost);
    assert.ok(quote.collateral <= budget);
    assert.ok(quoteBuyShares(s.state(), 0, quote.shares + 1n).cost > budget, "one more share does not fit");
    const byBudget = s.trade(B, 0, "BUY", { budget, limit: budget });
    assert.equal(byBudget.result.shares, quote.shares);
    assert.equal(byBudget.result.collateral, quote.collateral);
    assert.equal(s.e.lmsrQuoteForCost(ID, 0, 1n)!.shares, 0n);
    rejects(s.tryTrade(B, 0, "BUY", { budget: 1n }), "BUDGET_TOO_SMALL");

    // SELL outcome 1: gross from the pool, exit fee ceil(gross * 1%) to the treasury, limit = min net proceeds.
    const sq = quoteSell(s.state(), 1, 10n * SHARE, 100);
    assert.deepEqual(s.e.lmsrQuote(ID, 1, "SELL", 10n * SHARE), { shares: 10n * SHARE, collateral: sq.proceeds, fee: sq.fee, priceAfterWad: sq.priceAfter });
    assert.deepEqual(rejects(s.tryTrade(A, 1, "SELL", { shares: 10n * SHARE, limit: sq.proceeds + 1n }), "SLIPPAGE").details, {
      proceeds: sq.proceeds.toString(),
    });
    const treasuryBefore = s.e.balance(TREASURY, COLLATERAL_ASSET).total;
    const sell = s.trade(A, 1, "SELL", { shares: 10n * SHARE, limit: sq.proceeds });
    assert.deepEqual(sell.ops[0], {
      type: "LMSR_TRADE",
      account: A,
      marketId: ID,
      side: 1,
      direction: "SELL",
      shares: 10n * SHARE,
      collateral: sq.proceeds + sq.fee,
      fee: sq.fee,
    });
    assert.ok(sq.fee > 0n);
    assert.equal(s.e.balance(TREASURY, COLLATERAL_ASSET).total - treasuryBefore, sq.fee);
    assert.deepEqual(s.e.market(ID)!.lmsr!.q, [quote.shares, 20n * SHARE]);
    conserved(s);
    assert.equal(await s.e.ledger.root(), await replayRoot(s.ops));
  });

  it("refuses outcomes outside 0..n-1 and sells beyond holdings, changing nothing", () => {
    const s = binary();
    s.trade(A, 1, "BUY", { shares: 5n * SHARE });
    const before = stringifyJson([s.e.market(ID), s.e.balances(A)]);
    rejects(s.tryTrade(A, 2 as OutcomeIndex, "BUY", { shares: SHARE }), "INVALID_PAYLOAD", /0\.\.1/);
    rejects(s.tryTrade(A, -1 as OutcomeIndex, "BUY", { shares: SHARE }), "INVALID_PAYLOAD");
    rejects(s.tryTrade(B, 1, "SELL", { shares: SHARE }), "INSUFFICIENT_BALANCE");
    rejects(s.tryTrade(A, 0, "SELL", { shares: SHARE }), "INSUFFICIENT_BALANCE");
    rejects(s.attempt({ type: "resolveMarket", marketId: ID, winningOutcome: 2 }), "INVALID_PAYLOAD", /0\.\.1/);
    rejects(s.attempt({ type: "placeOrder", account: A, marketId: ID, outcome: 0, action: "buy", priceBps: 5000, size: SHARE, tif: "GTC" }), "INVALID_PAYLOAD");
    assert.equal(stringifyJson([s.e.market(ID), s.e.balances(A)]), before);
    assert.equal(s.e.lmsrQuote(ID, 2 as OutcomeIndex, "BUY", SHARE), undefined);
    assert.equal(s.e.lmsrQuote(ID, 0, "SELL", SHARE), undefined, "nobody holds outcome 0");
  });

  it("resolves to outcome 1: winners get shares minus the winnings exit fee, losers' shares burn, the residual returns to the funder", async () => {
    const s = binary();
    s.trade(A, 1, "BUY", { shares: 40n * SHARE });
    s.trade(B, 0, "BUY", { shares: 25n * SHARE });
    s.trade(B, 1, "BUY", { shares: 3n * SHARE + 7n });
    s.trade(A, 0, "BUY", { budget: 5n * PM });
    const cBefore = s.e.balance(C, COLLATERAL_ASSET).total;
    const tBefore = s.e.balance(TREASURY, COLLATERAL_ASSET).total;
    const poolBefore = s.e.balance(POOL, COLLATERAL_ASSET).total;
    const aPay = payout(40n * SHARE, 200);
    const bPay = payout(3n * SHARE + 7n, 200);
    const r = s.run({ type: "resolveMarket", marketId: ID, winningOutcome: 1 });
    const res = r.result;
    assert.equal(res.market.status, "resolved");
    assert.equal(res.market.winningOutcome, 1);
    assert.equal(res.paid, aPay.net + bPay.net);
    assert.equal(res.fees, aPay.fee + bPay.fee);
    assert.equal(res.residual, poolBefore - res.paid - res.fees);
    assert.ok(res.residual > 0n);
    assert.equal(s.e.balance(TREASURY, COLLATERAL_ASSET).total - tBefore, res.fees);
    assert.equal(s.e.balance(C, COLLATERAL_ASSET).total - cBefore, res.residual);
    assert.equal(s.e.balance(POOL, COLLATERAL_ASSET).total, 0n);
    for (const acct of [A, B]) for (const i of [0, 1] as const) assert.equal(s.e.balance(acct, asset(i)).total, 0n);
    const payouts = r.ops.filter((o) => o.type === "RESOLUTION_PAYOUT");
    assert.deepEqual(
      payouts.map((o) => o.type === "RESOLUTION_PAYOUT" && [o.account, o.side, o.payout, o.source]),
      [
        [A, 0, 0n, "POOL"],
        [A, 1, aPay.net, "POOL"],
        [B, 0, 0n, "POOL"],
        [B, 1, bPay.net, "POOL"],
      ],
    );
    // The winners' exit fees leave the pool in one op, after the last payout.
    const sweeps = r.ops.filter((o) => o.type === "FEE_SWEEP");
    assert.deepEqual(
      sweeps.map((o) => o.type === "FEE_SWEEP" && o.amount),
      [res.fees],
    );
    assert.ok(r.ops.findIndex((o) => o.type === "FEE_SWEEP") > r.ops.findLastIndex((o) => o.type === "RESOLUTION_PAYOUT"));
    rejects(s.tryTrade(A, 0, "BUY", { shares: SHARE }), "MARKET_CLOSED");
    conserved(s);
    assert.equal(await s.e.ledger.root(), await replayRoot(s.ops));
  });

  it("voids: every share refunds floor(shares / 2) from the pool, which stays solvent; the rest returns to the funder", async () => {
    const s = binary();
    const held: [typeof A, OutcomeIndex, bigint][] = [
      [A, 0, 10n * SHARE + 3n],
      [A, 1, 4n * SHARE + 1n],
      [B, 0, 5n],
      [B, 1, 7n * SHARE],
    ];
    for (const [acct, i, n] of held) s.trade(acct, i, "BUY", { shares: n });
    const poolBefore = s.e.balance(POOL, COLLATERAL_ASSET).total;
    const refunds = held.map(([, , n]) => n / 2n);
    const r = s.run({ type: "voidMarket", marketId: ID });
    const res = r.result;
    assert.deepEqual(
      r.ops.filter((o) => o.type === "VOID_REFUND").map((o) => o.type === "VOID_REFUND" && [o.account, o.side, o.shares, o.refund, o.source]),
      held.map(([acct, i, n], k) => [acct, i, n, refunds[k], "POOL"]),
    );
    assert.equal(
      res.paid,
      refunds.reduce((x, y) => x + y, 0n),
    );
    assert.equal(res.fees, 0n, "no fee on a void");
    assert.equal(res.residual, poolBefore - res.paid);
    assert.ok(res.residual >= SEED, "the pool keeps at least the seed after refunding 1/2 per share");
    assert.equal(s.e.market(ID)!.status, "voided");
    conserved(s);
    assert.equal(await s.e.ledger.root(), await replayRoot(s.ops));
  });

  it("resolves a heavily one-sided market: the pool covers every winning share", async () => {
    const s = setup({ funds: 100_000n * PM });
    s.run(lmsrMarket({ seed: 2n * PM, winningsExitFeeBps: 0, sellExitFeeBps: 0 }));
    // Push outcome 1 to near certainty with a big budget: its price tends to 1, the pool must still cover every share.
    const big = s.run({ type: "lmsrTrade", account: A, marketId: ID, outcome: 1, direction: "BUY", budget: 90_000n * PM });
    const shares = big.result.shares;
    assert.ok(shares > 10n * PM);
    for (let i = 0; i < 20; i++) s.run({ type: "lmsrTrade", account: B, marketId: ID, outcome: 0, direction: "BUY", shares: BigInt(1 + i) * 1_003n });
    const poolBefore = s.e.balance(POOL, COLLATERAL_ASSET).total;
    assert.ok(poolBefore >= shares, "the pool covers every share of the near-certain outcome");
    const r = s.run({ type: "resolveMarket", marketId: ID, winningOutcome: 1 });
    assert.equal(r.result.paid, shares);
    assert.equal(r.result.residual, poolBefore - shares);
    assert.equal(s.e.balance(POOL, COLLATERAL_ASSET).total, 0n);
    assert.equal(await s.e.ledger.root(), await replayRoot(s.ops));
  });

  it("voids a binary market with half-unit refunds", () => {
    const s = setup();
    s.run(lmsrMarket());
    s.run({ type: "lmsrTrade", account: A, marketId: ID, outcome: 1, direction: "BUY", shares: 5n });
    const r = s.run({ type: "voidMarket", marketId: ID });
    const refund = r.ops.find((o) => o.type === "VOID_REFUND");
    assert.equal(refund?.type === "VOID_REFUND" && refund.refund, 2n);
  });
});

describe("engine: LMSR and the fill allowance", () => {
  it("at zero, refuses new LMSR trades and partial sells without a trace, and lets a verified full close through", async () => {
    const s = setup({ allowance: { enabled: true, freePerPeriod: 1, periodMs: 7 * 86_400_000 } });
    s.run(lmsrMarket({ outcomes: 2 }));
    const command = (direction: "BUY" | "SELL", shares: bigint): LmsrTradeCommand => ({
      type: "lmsrTrade",
      account: A,
      marketId: ID,
      outcome: 0,
      direction,
      shares,
    });
    const trade = (direction: "BUY" | "SELL", shares: bigint) => s.run(command(direction, shares));
    const tryTrade = (direction: "BUY" | "SELL", shares: bigint) => s.attempt(command(direction, shares));
    trade("BUY", 3n * SHARE); // the one free wallet-side of the period
    assert.equal(s.e.allowance(A, s.now()).remaining, 0);
    const root = await s.e.ledger.root();
    const q = [...s.e.market(ID)!.lmsr!.q];
    const e = rejects(tryTrade("BUY", SHARE), "FILL_ALLOWANCE_EXHAUSTED");
    assert.deepEqual(e.details.allowance, s.e.allowance(A, s.now()));
    rejects(tryTrade("SELL", SHARE), "FILL_ALLOWANCE_EXHAUSTED");
    rejects(tryTrade("SELL", 4n * SHARE), "FILL_ALLOWANCE_EXHAUSTED"); // more than held is no close either
    assert.equal(await s.e.ledger.root(), root);
    assert.deepEqual(s.e.market(ID)!.lmsr!.q, q);
    trade("SELL", 3n * SHARE);
    assert.equal(s.e.balance(A, asset(0)).total, 0n);
    assert.equal(s.e.allowance(A, s.now()).remaining, 0);
  });
});

describe("engine: stamped fees", () => {
  it("caps every stamped fee at the on-chain factory's MAX_FEE_BPS (1000) and names the field", () => {
    const s = setup();
    for (const f of ["takerFeeBps", "sellExitFeeBps", "winningsExitFeeBps"] as const) {
      const e = rejects(s.attempt(lmsrMarket({ [f]: 1_001 })), "INVALID_PAYLOAD");
      assert.equal(e.details.field, f);
      assert.equal(s.e.market(ID), undefined);
    }
    s.run(lmsrMarket({ takerFeeBps: 1_000, sellExitFeeBps: 1_000, winningsExitFeeBps: 1_000 }));
    assert.equal(s.e.market(ID)!.sellExitFeeBps, 1_000);
  });
});
