/**
 * Property test: random command sequences (>= 10,000 commands per run of this file) keep the engine's invariants:
 * conservation (supply balances everything: totalOf(asset) == 0), no negative balance, reserved <= total and equal
 * to the locks of the resting orders, an uncrossed book, untouched state after a rejection, engine balances equal
 * to the mirrored LedgerState, solvent LMSR pools (the committed ledger is binary: the pool covers every winning share and every
 * void refund, and settling never fails), and a replay of the emitted ops through the PMJ5 codec from empty giving
 * the same root. Twice per sequence, at drawn steps, a twin is restored from the engine's snapshot (the second time from
 * the twin's own): from then on it must answer every command exactly as the engine does, and end with the same state.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { COLLATERAL_ASSET, SUPPLY_ACCOUNT, outcomeAssetId, poolAccountOf, stringifyJson, type JournalOp, type OutcomeIndex } from "../../decoder";
import { Engine } from "./engine";
import { A, B, C, TREASURY, config, replayRoot, restored } from "./test-helpers";
import type { Command, OrderSpec } from "./types";

const D = ("0x" + "d".repeat(40)) as typeof A;
const ACCOUNTS = [A, B, C, D];
const MARKETS = [1n, 2n];
/** Two binary LMSR markets (the committed ledger is binary). */
const LMSR_MARKETS = [3n, 4n];
const OUTCOMES = new Map<bigint, number>([
  [1n, 2],
  [2n, 2],
  [3n, 2],
  [4n, 2],
]);
const RUNS = 50;
const STEPS = 220;

const specArb: fc.Arbitrary<OrderSpec> = fc
  .record({
    outcome: fc.constantFrom(0 as const, 1 as const),
    action: fc.constantFrom("buy" as const, "sell" as const),
    priceBps: fc.oneof(fc.integer({ min: 3_500, max: 6_500 }), fc.integer({ min: 1, max: 9_999 })),
    size: fc.integer({ min: 1, max: 40 }).map((n) => BigInt(n) * 10_000n * 5n),
    tif: fc.constantFrom("GTC" as const, "GTC" as const, "GTD" as const, "IOC" as const, "FOK" as const),
    postOnly: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    cid: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined, freq: 3 }),
    ttl: fc.integer({ min: 1, max: 50_000 }),
  })
  .map(({ cid, ttl, ...s }) => {
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
  | { k: "lmsr"; acct: number; m: number; outcome: OutcomeIndex; buy: boolean; budget: boolean; shares: bigint };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 60, arbitrary: fc.record({ k: fc.constant("place" as const), acct: fc.nat(3), m: fc.nat(1), spec: specArb }) },
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant("batch" as const),
      acct: fc.nat(3),
      m: fc.nat(1),
      replace: fc.boolean(),
      specs: fc.array(specArb, { maxLength: 4 }),
    }),
  },
  { weight: 15, arbitrary: fc.record({ k: fc.constant("cancel" as const), acct: fc.nat(3), order: fc.nat(120) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant("cancelAll" as const), acct: fc.nat(3), m: fc.option(fc.nat(1), { nil: undefined }) }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant("credit" as const), acct: fc.nat(3), amount: fc.bigInt({ min: 1n, max: 20_000_000n }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("credits" as const), acct: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("resolve" as const), m: fc.nat(3), w: fc.constantFrom(0, 1, 2, null) }) },
  {
    weight: 8,
    arbitrary: fc.record({
      k: fc.constant("lmsr" as const),
      acct: fc.nat(3),
      m: fc.nat(1),
      outcome: fc.constantFrom<OutcomeIndex>(0, 1, 0, 1, 2),
      buy: fc.boolean(),
      budget: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
      shares: fc.bigInt({ min: 1n, max: 3_000_000n }),
    }),
  },
);

function absolute(spec: OrderSpec, at: number): OrderSpec {
  return spec.tif === "GTD" ? { ...spec, expiresAt: at + (spec.expiresAt ?? 1) } : spec;
}

function toCommand(s: Step, at: number): Command {
  switch (s.k) {
    case "place":
      return { type: "placeOrder", account: ACCOUNTS[s.acct]!, marketId: MARKETS[s.m]!, ...absolute(s.spec, at) };
    case "batch":
      return {
        type: s.replace ? "replaceQuotes" : "placeOrders",
        account: ACCOUNTS[s.acct]!,
        marketId: MARKETS[s.m]!,
        orders: s.specs.map((x) => absolute(x, at)),
      };
    case "cancel":
      return { type: "cancelOrder", account: ACCOUNTS[s.acct]!, orderId: `o-${s.order}` };
    case "cancelAll":
      return { type: "cancelAll", account: ACCOUNTS[s.acct]!, marketId: s.m === undefined ? undefined : MARKETS[s.m] };
    case "credit":
      return { type: "credit", account: ACCOUNTS[s.acct]!, amount: s.amount, reason: "GRANT" };
    case "credits":
      return { type: "addFillCredits", account: ACCOUNTS[s.acct]!, fills: 3 };
    case "resolve": {
      const marketId = [...MARKETS, ...LMSR_MARKETS][s.m]!;
      return s.w === null ? { type: "voidMarket", marketId } : { type: "resolveMarket", marketId, winningOutcome: s.w };
    }
    case "lmsr": {
      const base = { type: "lmsrTrade" as const, account: ACCOUNTS[s.acct]!, marketId: LMSR_MARKETS[s.m]!, outcome: s.outcome };
      // A budget buy spends the drawn amount as collateral units; with a limit half the time (never binding).
      if (s.buy && s.budget) return { ...base, direction: "BUY", budget: s.shares, ...(s.shares % 2n === 0n ? { limit: s.shares } : {}) };
      return { ...base, direction: s.buy ? "BUY" : "SELL", shares: s.shares };
    }
  }
}

const ASSETS = [
  COLLATERAL_ASSET,
  ...[...MARKETS, ...LMSR_MARKETS].flatMap((m) => [0, 1, 2].slice(0, OUTCOMES.get(m)).map((i) => outcomeAssetId(m, i as OutcomeIndex))),
];

function fingerprint(e: Engine): string {
  const accts = e.accounts().sort();
  return stringifyJson({
    b: accts.map((a) => e.balances(a)),
    o: accts.map((a) => e.openOrders(a)),
    k: [...MARKETS, ...LMSR_MARKETS].map((m) => [e.book(m, 10_000), e.market(m)]),
    al: accts.map((a) => e.allowance(a, 0)),
  });
}

/** Each book's levels as its resting orders add up (YES terms: a NO buy at p is an ask at 10000 - p), best first. */
function restingLevels(e: Engine, m: bigint): { bids: [number, bigint][]; asks: [number, bigint][] } {
  const bids = new Map<number, bigint>();
  const asks = new Map<number, bigint>();
  for (const a of e.accounts())
    for (const o of e.openOrders(a)) {
      if (BigInt(o.marketId) !== m) continue;
      const yes = o.outcome === 0;
      const side = (o.action === "buy") === yes ? bids : asks;
      const y = yes ? o.priceBps : 10_000 - o.priceBps;
      side.set(y, (side.get(y) ?? 0n) + o.remainingSize);
    }
  return { bids: [...bids].sort((x, y) => y[0] - x[0]), asks: [...asks].sort((x, y) => x[0] - y[0]) };
}

function checkInvariants(e: Engine): void {
  for (const m of MARKETS) {
    const mv = e.market(m)!;
    if (mv.bestBidBps !== null && mv.bestAskBps !== null) assert.ok(mv.bestBidBps < mv.bestAskBps, `book ${m} crossed`);
    // The book's levels and best prices (found through its level bitmap) against the resting orders themselves.
    const want = restingLevels(e, m);
    const depth = e.book(m, 10_000)!;
    assert.deepEqual({ bids: depth.bids.map((l) => [l.priceBps, l.size]), asks: depth.asks.map((l) => [l.priceBps, l.size]) }, want, `book ${m} levels`);
    assert.equal(mv.bestBidBps, want.bids[0]?.[0] ?? null, `best bid of ${m}`);
    assert.equal(mv.bestAskBps, want.asks[0]?.[0] ?? null, `best ask of ${m}`);
  }
  for (const m of LMSR_MARKETS) {
    const mv = e.market(m)!;
    if (mv.status !== "open") continue;
    const q = mv.lmsr!.q;
    const n = BigInt(q.length);
    assert.equal(q.length, OUTCOMES.get(m));
    // Outstanding shares are exactly what the holders have (the supply issued them), and the pool can pay either way.
    q.forEach((qi, i) => assert.equal(-e.ledger.balanceOf(SUPPLY_ACCOUNT, outcomeAssetId(m, i as OutcomeIndex)), qi, `q[${i}] of ${m}`));
    const pool = e.balance(poolAccountOf(m), COLLATERAL_ASSET).total;
    for (const qi of q) assert.ok(pool >= qi, `pool of ${m} (${pool}) cannot pay ${qi} winning shares`);
    assert.ok(pool * n >= q.reduce((x, y) => x + y, 0n), `pool of ${m} cannot refund a void`);
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
    let lmsrTrades = 0;
    let lmsrSettles = 0;
    const codes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(stepArb, fc.integer({ min: 0, max: 3_000 })), { minLength: STEPS, maxLength: STEPS }),
        fc.array(fc.constantFrom(0, 1, 2, null), { minLength: 4, maxLength: 4 }),
        fc.tuple(fc.nat(STEPS - 1), fc.nat(STEPS - 1)),
        fc.constantFrom(undefined, 3),
        async (steps, finals, twinAt, keepFinished) => {
          const e = new Engine({ ...config({ enabled: true, freePerPeriod: 6, periodMs: 60_000 }), ...(keepFinished ? { keepFinished } : {}) });
          const ops: JournalOp[] = [];
          let at = 0;
          let twin: Engine | null = null;
          const run = (c: Command) => {
            const r = e.apply(c, at);
            if (twin) assert.equal(stringifyJson(twin.apply(c, at)), stringifyJson(r), `the restored twin answered ${c.type} differently`);
            if (r.ok) ops.push(...r.ops);
            return r;
          };
          const mustRun = (c: Command) => {
            const r = run(c);
            assert.ok(r.ok, `${c.type} refused: ${r.ok ? "" : `${r.code} ${r.message}`}`);
          };
          for (const a of ACCOUNTS) {
            mustRun({ type: "openAccount", account: a, signupAt: 0 });
            mustRun({ type: "credit", account: a, amount: 50_000_000n, reason: "GRANT" });
          }
          for (const m of MARKETS) {
            mustRun({
              type: "createMarket",
              marketId: m,
              pricing: "ORDERBOOK",
              outcomes: 2,
              feeModel: m === 1n ? "notional-v1" : "shares-v2",
              takerFeeBps: 150,
              sellExitFeeBps: 0,
              winningsExitFeeBps: 200,
            });
          }
          for (const m of LMSR_MARKETS) {
            mustRun({
              type: "createMarket",
              marketId: m,
              pricing: "LMSR",
              outcomes: OUTCOMES.get(m)!,
              feeModel: "notional-v1",
              takerFeeBps: 0,
              sellExitFeeBps: 100,
              winningsExitFeeBps: 200,
              seed: 20_000_000n,
              funder: D,
            });
          }
          const seqs = new Map<string, number>();
          for (const [i, [step, dt]] of steps.entries()) {
            at += dt;
            if (i === Math.min(...twinAt)) twin = restored(e);
            else if (i === Math.max(...twinAt)) twin = restored(twin!);
            // Markets close only near the end of a sequence, so most commands trade.
            const cmd = step.k === "resolve" && i < STEPS - 20 ? toCommand({ k: "credits", acct: 0 }, at) : toCommand(step, at);
            commands++;
            const before = rejections % 7 === 0 ? fingerprint(e) : null;
            const r = run(cmd);
            if (r.ok) {
              for (const rep of r.reports) {
                assert.equal(rep.seq, (seqs.get(rep.account) ?? 0) + 1, "report seq gap");
                seqs.set(rep.account, rep.seq);
              }
              fills += r.ops.filter((o) => o.type === "MATCH" || o.type === "LMSR_TRADE").length;
              for (const o of r.ops) {
                if (o.type === "LMSR_TRADE" && o.marketId === 4n) lmsrTrades++;
              }
              if ((cmd.type === "resolveMarket" || cmd.type === "voidMarket") && cmd.marketId === 4n) lmsrSettles++;
            } else {
              // Settling an open LMSR market with a valid outcome never fails: the pool is always solvent.
              if (cmd.type === "voidMarket" || cmd.type === "resolveMarket") {
                const mv = e.market(cmd.marketId)!;
                const valid = cmd.type === "voidMarket" || cmd.winningOutcome < mv.outcomes;
                assert.ok(!(mv.lmsr && mv.status === "open" && valid), `settling LMSR market ${cmd.marketId} refused: ${r.code} ${r.message}`);
              }
              rejections++;
              codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
              if (before !== null) assert.equal(fingerprint(e), before, `rejected ${cmd.type} (${r.code}) changed the state`);
            }
            checkInvariants(e);
          }
          // Every market still open settles at the end (void or a winner).
          [...MARKETS, ...LMSR_MARKETS].forEach((marketId, i) => {
            if (e.market(marketId)!.status !== "open") return;
            const w = finals[i]!;
            if (marketId === 4n) lmsrSettles++;
            mustRun(w === null ? { type: "voidMarket", marketId } : { type: "resolveMarket", marketId, winningOutcome: w % OUTCOMES.get(marketId)! });
            assert.equal(e.balance(poolAccountOf(marketId), COLLATERAL_ASSET).total, 0n, "the pool pays out and returns the residual");
          });
          for (const asset of ASSETS) assert.equal(e.ledger.totalOf(asset), 0n, `asset ${asset} not conserved`);
          for (const a of e.accounts()) for (const asset of ASSETS) assert.equal(e.ledger.balanceOf(a, asset), e.balance(a, asset).total);
          assert.equal(await replayRoot(ops), await e.ledger.root());
          assert.deepEqual(twin!.snapshot(), e.snapshot(), "the twin ends in the engine's state");
          assert.equal(await twin!.ledger.root(), await e.ledger.root());
          void TREASURY;
        },
      ),
      { numRuns: RUNS, seed: Number(process.env.ENGINE_PROPERTY_SEED ?? 20_261_122), endOnFailure: true, includeErrorInReport: true },
    );
    console.log(
      `# engine property: ${commands} commands, ${fills} fills (${lmsrTrades} on LMSR market 4, ${lmsrSettles} settles of it), rejections ${JSON.stringify(Object.fromEntries(codes))}`,
    );
    assert.ok(commands >= 10_000, `only ${commands} commands`);
    assert.ok(fills > 500, `only ${fills} fills: the generator does not exercise matching`);
    // 157–183 over seven seeds; one random seed (ENGINE_PROPERTY_SEED) drew 145, so the floor leaves room.
    assert.ok(lmsrTrades > 100 && lmsrSettles >= RUNS, "the generator does not exercise the LMSR markets");
  });
});
