/**
 * Property test: random command sequences (>= 10,000 commands per run of this file) keep the engine's invariants:
 * conservation (supply balances everything: totalOf(asset) == 0), no negative balance, reserved <= total and equal
 * to the locks of the resting orders, an uncrossed book, untouched state after a rejection, engine balances equal
 * to the mirrored LedgerState, and a replay of the emitted ops from empty giving the same root.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { COLLATERAL_ASSET, SUPPLY_ACCOUNT, outcomeAssetId, type JournalOp } from "../../decoder";
import { toJson } from "./command-json";
import { Engine } from "./engine";
import { A, B, C, TREASURY, config, replayRoot } from "./test-helpers";
import { EngineRejection, type Command, type OrderSpec } from "./types";

const D = ("0x" + "d".repeat(40)) as typeof A;
const ACCOUNTS = [A, B, C, D];
const MARKETS = [1n, 2n];
const LMSR_MARKET = 3n;
const RUNS = 50;
const STEPS = 220;

const specArb: fc.Arbitrary<OrderSpec> = fc.record({
  outcome: fc.constantFrom(0 as const, 1 as const),
  action: fc.constantFrom("buy" as const, "sell" as const),
  priceBps: fc.oneof(fc.integer({ min: 3_500, max: 6_500 }), fc.integer({ min: 1, max: 9_999 })),
  size: fc.integer({ min: 1, max: 40 }).map((n) => BigInt(n) * 10_000n * 5n),
  tif: fc.constantFrom("GTC" as const, "GTC" as const, "GTD" as const, "IOC" as const, "FOK" as const),
  postOnly: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
  cid: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined, freq: 3 }),
  ttl: fc.integer({ min: 1, max: 50_000 }),
}).map(({ cid, ttl, ...s }) => {
  const spec: OrderSpec = { ...s, postOnly: s.postOnly && (s.tif === "GTC" || s.tif === "GTD") };
  if (s.tif === "GTD") spec.expiresAt = ttl; // made absolute when applied
  if (cid !== undefined) spec.clientOrderId = `c${cid}`;
  return spec;
});

type Step =
  | { k: "place"; acct: number; m: number; spec: OrderSpec }
  | { k: "batch"; acct: number; m: number; replace: boolean; specs: OrderSpec[] }
  | { k: "cancel"; acct: number; order: number }
  | { k: "cancelAll"; acct: number; m?: number }
  | { k: "credit"; acct: number; amount: bigint }
  | { k: "credits"; acct: number }
  | { k: "resolve"; m: number; w: number | null }
  | { k: "lmsr"; acct: number; outcome: 0 | 1; buy: boolean; shares: bigint };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 60, arbitrary: fc.record({ k: fc.constant("place" as const), acct: fc.nat(3), m: fc.nat(1), spec: specArb }) },
  { weight: 6, arbitrary: fc.record({ k: fc.constant("batch" as const), acct: fc.nat(3), m: fc.nat(1), replace: fc.boolean(), specs: fc.array(specArb, { maxLength: 4 }) }) },
  { weight: 15, arbitrary: fc.record({ k: fc.constant("cancel" as const), acct: fc.nat(3), order: fc.nat(120) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant("cancelAll" as const), acct: fc.nat(3), m: fc.option(fc.nat(1), { nil: undefined }) }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant("credit" as const), acct: fc.nat(3), amount: fc.bigInt({ min: 1n, max: 20_000_000n }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("credits" as const), acct: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("resolve" as const), m: fc.nat(2), w: fc.constantFrom(0, 1, null) }) },
  { weight: 6, arbitrary: fc.record({ k: fc.constant("lmsr" as const), acct: fc.nat(3), outcome: fc.constantFrom(0 as const, 1 as const), buy: fc.boolean(), shares: fc.bigInt({ min: 1n, max: 3_000_000n }) }) },
);

function absolute(spec: OrderSpec, at: number): OrderSpec {
  return spec.tif === "GTD" ? { ...spec, expiresAt: at + (spec.expiresAt ?? 1) } : spec;
}

function toCommand(s: Step, at: number): Command {
  switch (s.k) {
    case "place":
      return { type: "placeOrder", account: ACCOUNTS[s.acct]!, marketId: MARKETS[s.m]!, ...absolute(s.spec, at) };
    case "batch":
      return { type: s.replace ? "replaceQuotes" : "placeOrders", account: ACCOUNTS[s.acct]!, marketId: MARKETS[s.m]!, orders: s.specs.map((x) => absolute(x, at)) };
    case "cancel":
      return { type: "cancelOrder", account: ACCOUNTS[s.acct]!, orderId: `o-${s.order}` };
    case "cancelAll":
      return { type: "cancelAll", account: ACCOUNTS[s.acct]!, marketId: s.m === undefined ? undefined : MARKETS[s.m] };
    case "credit":
      return { type: "credit", account: ACCOUNTS[s.acct]!, amount: s.amount, reason: "GRANT" };
    case "credits":
      return { type: "addFillCredits", account: ACCOUNTS[s.acct]!, fills: 3 };
    case "resolve": {
      const marketId = s.m === 2 ? LMSR_MARKET : MARKETS[s.m]!;
      return s.w === null ? { type: "voidMarket", marketId } : { type: "resolveMarket", marketId, winningOutcome: s.w };
    }
    case "lmsr":
      return { type: "lmsrTrade", account: ACCOUNTS[s.acct]!, marketId: LMSR_MARKET, outcome: s.outcome, direction: s.buy ? "BUY" : "SELL", shares: s.shares };
  }
}

const ASSETS = [COLLATERAL_ASSET, ...[...MARKETS, LMSR_MARKET].flatMap((m) => [outcomeAssetId(m, 0), outcomeAssetId(m, 1)])];

function fingerprint(e: Engine): string {
  const accts = e.accounts().sort();
  return toJson({
    b: accts.map((a) => e.balances(a)),
    o: accts.map((a) => e.openOrders(a)),
    k: [...MARKETS, LMSR_MARKET].map((m) => [e.book(m, 10_000), e.market(m)]),
    al: accts.map((a) => e.allowance(a, 0)),
  });
}

function checkInvariants(e: Engine): void {
  for (const m of MARKETS) {
    const mv = e.market(m)!;
    if (mv.bestBidBps !== null && mv.bestAskBps !== null) assert.ok(mv.bestBidBps < mv.bestAskBps, `book ${m} crossed`);
  }
  for (const a of e.accounts()) {
    if (a === SUPPLY_ACCOUNT) continue;
    const locks = new Map<bigint, bigint>();
    for (const o of e.openOrders(a)) {
      const asset = o.action === "buy" ? COLLATERAL_ASSET : outcomeAssetId(BigInt(o.marketId), o.outcome);
      locks.set(asset, (locks.get(asset) ?? 0n) + o.reserved);
    }
    for (const asset of ASSETS) {
      const b = e.balance(a, asset);
      assert.ok(b.total >= 0n, `negative balance ${a} ${asset}`);
      assert.ok(b.reserved >= 0n && b.reserved <= b.total, `reserved > total ${a} ${asset}`);
      assert.equal(b.reserved, locks.get(asset) ?? 0n, `reserved != locks of open orders ${a} ${asset}`);
    }
  }
}

describe("engine property: random command sequences", () => {
  it(`keeps every invariant over ${RUNS} x ${STEPS} commands`, async () => {
    let commands = 0;
    let fills = 0;
    let rejections = 0;
    const codes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(stepArb, fc.integer({ min: 0, max: 3_000 })), { minLength: STEPS, maxLength: STEPS }), async (steps) => {
        const e = new Engine(config({ enabled: true, freePerPeriod: 6, periodMs: 60_000 }));
        const ops: JournalOp[] = [];
        let at = 0;
        const run = (c: Command) => {
          const r = e.apply(c, at);
          ops.push(...r.ops);
          return r;
        };
        for (const a of ACCOUNTS) {
          run({ type: "openAccount", account: a, signupAt: 0 });
          run({ type: "credit", account: a, amount: 50_000_000n, reason: "GRANT" });
        }
        for (const m of MARKETS) {
          run({ type: "createMarket", marketId: m, pricing: "ORDERBOOK", outcomes: 2, feeModel: m === 1n ? "notional-v1" : "shares-v2", takerFeeBps: 150, sellExitFeeBps: 0, winningsExitFeeBps: 200 });
        }
        run({ type: "createMarket", marketId: LMSR_MARKET, pricing: "LMSR", outcomes: 2, feeModel: "notional-v1", takerFeeBps: 0, sellExitFeeBps: 100, winningsExitFeeBps: 200, seed: 20_000_000n, funder: D });
        const seqs = new Map<string, number>();
        for (const [i, [step, dt]] of steps.entries()) {
          at += dt;
          // Markets close only near the end of a sequence, so most commands trade.
          const cmd = step.k === "resolve" && i < STEPS - 20 ? toCommand({ k: "credits", acct: 0 }, at) : toCommand(step, at);
          commands++;
          const before = rejections % 7 === 0 ? fingerprint(e) : null;
          try {
            const r = run(cmd);
            for (const rep of r.reports) {
              assert.equal(rep.seq, (seqs.get(rep.account) ?? 0) + 1, "report seq gap");
              seqs.set(rep.account, rep.seq);
            }
            fills += r.ops.filter((o) => o.type === "MATCH" || o.type === "LMSR_TRADE").length;
          } catch (err) {
            if (!(err instanceof EngineRejection)) throw err;
            rejections++;
            codes.set(err.code, (codes.get(err.code) ?? 0) + 1);
            if (before !== null) assert.equal(fingerprint(e), before, `rejected ${cmd.type} (${err.code}) changed the state`);
          }
          checkInvariants(e);
        }
        for (const asset of ASSETS) assert.equal(e.ledger.totalOf(asset), 0n, `asset ${asset} not conserved`);
        for (const a of e.accounts()) for (const asset of ASSETS) assert.equal(e.ledger.balanceOf(a, asset), e.balance(a, asset).total);
        assert.equal(await replayRoot(ops), await e.ledger.root());
        void TREASURY;
      }),
      { numRuns: RUNS, seed: Number(process.env.ENGINE_PROPERTY_SEED ?? 20_261_122), endOnFailure: true, includeErrorInReport: true },
    );
    console.log(`# engine property: ${commands} commands, ${fills} fills, rejections ${JSON.stringify(Object.fromEntries(codes))}`);
    assert.ok(commands >= 10_000, `only ${commands} commands`);
    assert.ok(fills > 500, `only ${fills} fills: the generator does not exercise matching`);
  });
});
