/**
 * Properties of the leaderboard's arithmetic over random journals of fills (fast-check):
 * - the books balance: at complementary marks, every trader's P&L sums to minus the fees paid, less at most one base
 *   unit per position for the floor of each share's worth;
 * - periods add up: for any boundary, an account's figures over [0, b) plus over [b, end) equal its figures over all
 *   time, and a snapshot taken at b is unchanged by everything the pass applies after it;
 * - a checkpoint changes nothing: a pass restored from one taken at any point (with a snapshot before it) goes on
 *   exactly as the pass that never stopped, and neither moves the other's records.
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { Address } from "viem";
import type { JournalOp, MatchOp } from "../../../decoder";
import { applyEntry, emptyState, snapshotOf, type Marks, type PassState } from "./trading-pass";
import { decodeCheckpoint, encodeCheckpoint } from "./pass-checkpoint";
import { traderFigures, type TraderFigures } from "./boards";
import type { MarketFacts, PeriodFigures } from "./generation";

const ACCOUNTS = [
  "0x00000000000000000000000000000000000000a1",
  "0x00000000000000000000000000000000000000a2",
  "0x00000000000000000000000000000000000000a3",
] as Address[];
const facts: MarketFacts = { address: "", category: "OTHER", collateral: { symbol: "PM", decimals: 6 }, creator: "", createdAt: 0 };
const kept = new Map([
  ["1", facts],
  ["2", facts],
]);

/**
 * A mint between two accounts, then maybe a resale of part of the maker's new shares to a third party: journals the
 * engine could write (a maker sells only shares it holds).
 */
const fillsArb: fc.Arbitrary<MatchOp[]> = fc
  .record({
    maker: fc.integer({ min: 0, max: 2 }),
    taker: fc.integer({ min: 0, max: 2 }),
    buyer: fc.integer({ min: 0, max: 2 }),
    marketId: fc.constantFrom(1n, 2n),
    side: fc.constantFrom(0 as const, 1 as const),
    shares: fc.bigInt({ min: 1n, max: 1_000_000n }),
    resold: fc.bigInt({ min: 0n, max: 1_000_000n }),
    priceBps: fc.integer({ min: 1, max: 9_999 }),
    resalePriceBps: fc.integer({ min: 1, max: 9_999 }),
    fee: fc.bigInt({ min: 0n, max: 1_000n }),
  })
  .filter((m) => m.maker !== m.taker)
  .map((m) => {
    const mint: MatchOp = {
      type: "MATCH",
      maker: ACCOUNTS[m.maker],
      taker: ACCOUNTS[m.taker],
      marketId: m.marketId,
      side: m.side,
      kind: 2,
      shares: m.shares,
      priceBps: m.priceBps,
      fee: m.fee,
    };
    const resold = m.resold % (m.shares + 1n);
    if (resold === 0n || m.buyer === m.maker) return [mint];
    return [mint, { ...mint, taker: ACCOUNTS[m.buyer], kind: 0, shares: resold, priceBps: m.resalePriceBps, fee: 0n }];
  });
const journalArb = fc.array(fillsArb, { minLength: 1, maxLength: 20 }).map((xs) => xs.flat());

/** Binary marks: each market's YES price in ppm, NO its complement. */
const marksArb = fc.tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }));
const marksOf =
  ([m1, m2]: [number, number]): Marks =>
  (market) =>
    market === "1" ? [m1, 1_000_000 - m1] : [m2, 1_000_000 - m2];

/** Every figure of a state, as text (to tell whether it changed). */
const textOf = (s: PassState) =>
  JSON.stringify(
    [...s.trading].map(([a, m]) => [a, [...m]]),
    (_, v) => (typeof v === "bigint" ? v.toString() : v),
  );
/** A snapshot and its text at the moment it was taken. */
const taken = (s: PassState): [PassState, string] => {
  const snap = snapshotOf(s);
  return [snap, textOf(snap)];
};
const byAddress = (rows: TraderFigures[]) => new Map(rows.map((r) => [r.address, r]));
const ZERO = { pnl: 0n, volume: 0n, paid: 0n, closedCalls: 0 };

describe("leaderboard arithmetic: properties", () => {
  it("the books balance: P&L sums to minus the fees, within one unit per position", () => {
    fc.assert(
      fc.property(journalArb, marksArb, (ops, marks) => {
        const s = emptyState();
        for (const [i, op] of ops.entries()) applyEntry(s, i, [op]);
        const p: PeriodFigures = { bounds: { kind: "all", start: null, end: ops.length }, start: null, end: { state: s, marks: marksOf(marks) } };
        const total = traderFigures(p, kept).reduce((sum, t) => sum + t.pnl, 0n);
        const fees = ops.reduce((sum, op) => sum + op.fee, 0n);
        let positions = 0n;
        for (const byMarket of s.trading.values()) for (const t of byMarket.values()) positions += BigInt(t.shares.filter((x) => x !== 0n).length);
        assert.ok(total <= -fees && total >= -fees - positions, `sum of P&L ${total}, fees ${fees}, positions ${positions}`);
      }),
      { numRuns: 300 },
    );
  });

  it("periods add up at any boundary, and a snapshot never moves", () => {
    fc.assert(
      fc.property(journalArb, fc.nat(), marksArb, marksArb, (ops: JournalOp[], cut, startMarks, endMarks) => {
        const b = cut % (ops.length + 1);
        const s = emptyState();
        let snap = snapshotOf(s);
        let frozen = "";
        for (const [i, op] of ops.entries()) {
          if (i === b) [snap, frozen] = taken(s);
          applyEntry(s, i, [op]);
        }
        if (b === ops.length) [snap, frozen] = taken(s);
        const atB = { state: snap, marks: marksOf(startMarks) };
        const atEnd = { state: s, marks: marksOf(endMarks) };
        const before = byAddress(traderFigures({ bounds: { kind: "all", start: null, end: b }, start: null, end: atB }, kept));
        const after = byAddress(traderFigures({ bounds: { kind: "7d", start: b, end: ops.length }, start: atB, end: atEnd }, kept));
        const all = byAddress(traderFigures({ bounds: { kind: "all", start: null, end: ops.length }, start: null, end: atEnd }, kept));
        for (const address of new Set([...all.keys(), ...before.keys(), ...after.keys()])) {
          const whole = all.get(address) ?? ZERO;
          const x = before.get(address) ?? ZERO;
          const y = after.get(address) ?? ZERO;
          assert.equal(x.pnl + y.pnl, whole.pnl, "pnl");
          assert.equal(x.volume + y.volume, whole.volume, "volume");
          assert.equal(x.paid + y.paid, whole.paid, "paid");
          assert.equal(x.closedCalls + y.closedCalls, whole.closedCalls, "closed calls");
        }
        assert.equal(textOf(snap), frozen, "the snapshot moved");
      }),
      { numRuns: 300 },
    );
  });

  it("a pass restored from a checkpoint at any point goes on exactly as the pass that never stopped", async () => {
    /** Markets' lives and ballots besides the fills, so every kind of record is in the checkpoint. */
    const lifeArb: fc.Arbitrary<JournalOp> = fc.oneof(
      fc.record({
        type: fc.constant("MARKET_STATE" as const),
        marketId: fc.constantFrom(1n, 2n),
        state: fc.constantFrom("creator_proposal" as const, "challenge" as const, "resolved" as const, "void" as const),
        outcome: fc.constantFrom(0 as const, 1 as const),
      }),
      fc.record({
        type: fc.constantFrom("STAKE_LOCK" as const),
        marketId: fc.constantFrom(1n, 2n),
        session: fc.constant(1),
        account: fc.constantFrom(...ACCOUNTS),
        amount: fc.bigInt({ min: 1n, max: 1_000n }),
        ballotHash: fc.constant(`0x${"11".repeat(32)}` as const),
      }),
      fc.record({
        type: fc.constant("VOTE_REWARD" as const),
        marketId: fc.constantFrom(1n, 2n),
        session: fc.constant(1),
        account: fc.constantFrom(...ACCOUNTS),
        amount: fc.bigInt({ min: 1n, max: 1_000n }),
      }),
    );
    const opsArb = fc
      .array(
        fc.oneof(
          fillsArb,
          lifeArb.map((op) => [op]),
        ),
        { minLength: 1, maxLength: 30 },
      )
      .map((xs) => xs.flat());
    /** Every figure of a state, as text. */
    const all = (st: PassState) =>
      JSON.stringify(
        [st.trading, st.voting, st.markets].map((m) => [...m].map(([k, v]) => [k, v instanceof Map ? [...v] : v])),
        (_, v) => (typeof v === "bigint" ? v.toString() : v),
      );
    await fc.assert(
      fc.asyncProperty(opsArb, fc.nat(), fc.nat(), fc.integer({ min: 1, max: 7 }), async (ops, snapAt, cutAt, lineItems) => {
        const cut = cutAt % (ops.length + 1);
        const snapStep = snapAt % (cut + 1);
        const s = emptyState();
        let snap = snapshotOf(s);
        for (const [i, op] of ops.entries()) {
          if (i === snapStep) snap = snapshotOf(s);
          if (i === cut) break;
          applyEntry(s, i, [op]);
        }
        if (snapStep === cut) snap = snapshotOf(s);
        const text = await encodeCheckpoint({ state: s, snaps: new Map([[snapStep, snap]]) }, lineItems);
        const restored = await decodeCheckpoint(text);
        assert.equal(all(restored.state), all(s), "the restored state");
        assert.equal(all(restored.snaps.get(snapStep)!), all(snap), "the restored snapshot");
        const snapText = all(snap);
        for (const [i, op] of ops.entries()) {
          if (i < cut) continue;
          applyEntry(s, i, [op]);
          applyEntry(restored.state, i, [op]);
        }
        assert.equal(all(restored.state), all(s), "both passes end the same");
        assert.equal(all(restored.snaps.get(snapStep)!), snapText, "the restored snapshot never moved");
        assert.equal(all(snap), snapText, "the original snapshot never moved");
        // Shared records are written once: the checkpoint of a state and its unchanged snapshot holds each record once.
        const records = async (snaps: Map<number, PassState>) =>
          (await encodeCheckpoint({ state: s, snaps }, lineItems))
            .split("\n")
            .slice(1)
            .flatMap((line) => JSON.parse(line) as unknown[][])
            .filter((item) => item[0] === "r").length;
        assert.equal(await records(new Map([[0, snapshotOf(s)]])), await records(new Map()));
      }),
      { numRuns: 300 },
    );
  });
});
