/**
 * The leaderboard's arithmetic on journal ops written by hand: trading figures per account and market, marks,
 * settlement at resolution, calls, periods as end minus start, the three boards' filters and orders, and the calendar.
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { Address } from "viem";
import type { JournalOp } from "../../../decoder";
import { applyEntry, emptyState, snapshotOf, type Marks } from "./trading-pass";
import { creatorFigures, marketsKept, rankCreators, rankTraders, rankVoters, traderFigures, voterFigures } from "./boards";
import type { Generation, MarketFacts, PeriodFigures } from "./generation";
import { boundsOf, monthStart, weekStart } from "./periods";
import { generationOf, uuidV7 } from "./generation-id";

const alice = "0x00000000000000000000000000000000000a11ce" as Address;
const bob = "0x0000000000000000000000000000000000000b0b" as Address;
const carol = "0x00000000000000000000000000000000000ca201" as Address;
const dave = "0x0000000000000000000000000000000000000da7" as Address;
const creator = "0x00000000000000000000000000000000000c4ea7" as Address;

const mint: JournalOp = { type: "MATCH", maker: alice, taker: bob, marketId: 1n, side: 0, kind: 2, shares: 100n, priceBps: 4000, fee: 1n };
const buy: JournalOp = { type: "MATCH", maker: alice, taker: carol, marketId: 1n, side: 0, kind: 0, shares: 50n, priceBps: 5000, fee: 0n };
const resolved: JournalOp = { type: "MARKET_STATE", marketId: 1n, state: "resolved", outcome: 0 };
const payout: JournalOp = { type: "RESOLUTION_PAYOUT", marketId: 1n, account: alice, side: 0, shares: 50n, payout: 49n, source: "POOL" };
const stake: JournalOp = { type: "STAKE_LOCK", marketId: 1n, session: 1, account: dave, amount: 10n, ballotHash: `0x${"ab".repeat(32)}` };
const reward: JournalOp = { type: "VOTE_REWARD", marketId: 1n, session: 1, account: dave, amount: 4n };

const half: Marks = (m) => (m === "1" ? [500_000, 500_000] : undefined);
const facts = (category: string): MarketFacts => ({ address: "0xm1", category, collateral: { symbol: "PM", decimals: 6 }, creator, createdAt: 500 });
const gen = (category = "SPORTS") => ({ markets: new Map([["1", facts(category)]]) }) as unknown as Generation;
const byAddress = <T extends { address: Address }>(rows: T[]) => new Map(rows.map((r) => [r.address, r]));

describe("leaderboard: the journal pass and the boards", () => {
  it("values each account's trading at the marks: P&L, volume (collateral exchanged, fees apart) and paid", () => {
    const s = emptyState();
    applyEntry(s, 1000, [mint]);
    applyEntry(s, 2000, [buy]);
    const p: PeriodFigures = { bounds: { kind: "all", start: null, end: 2500 }, start: null, end: { state: s, marks: half } };
    const rows = byAddress(traderFigures(p, marketsKept(gen(), { category: "ALL", collateral: "pm" })));
    // alice: paid 40 for 100 YES (mint), sold 50 for 25: cash -15, 50 YES at 0.5 = 10.
    assert.deepEqual([rows.get(alice)?.pnl, rows.get(alice)?.volume, rows.get(alice)?.paid], [10n, 65n, 40n]);
    // bob: paid 60 + fee 1 for 100 NO at 0.5: -11; his volume leaves the fee out.
    assert.deepEqual([rows.get(bob)?.pnl, rows.get(bob)?.volume, rows.get(bob)?.paid], [-11n, 60n, 61n]);
    assert.deepEqual([rows.get(carol)?.pnl, rows.get(carol)?.volume], [0n, 25n]);
    assert.deepEqual(
      rankTraders([...rows.values()], "PNL").map((r) => r.address),
      [alice, carol, bob],
    );
    assert.deepEqual(
      rankTraders([...rows.values()], "VOLUME").map((r) => r.address),
      [alice, bob, carol],
    );
    // Another collateral or category keeps no market: an empty board.
    assert.equal(traderFigures(p, marketsKept(gen(), { category: "ALL", collateral: "USDC" })).length, 0);
    assert.equal(traderFigures(p, marketsKept(gen(), { category: "POLITICS", collateral: "PM" })).length, 0);
  });

  it("settles holders at resolution (payout marks, wins, closed calls); a payout after it changes no one's P&L", () => {
    const s = emptyState();
    applyEntry(s, 1000, [mint]);
    applyEntry(s, 2000, [buy]);
    const mid = snapshotOf(s);
    applyEntry(s, 3000, [resolved]);
    const atResolution = byAddress(
      traderFigures({ bounds: { kind: "all", start: null, end: 3500 }, start: null, end: { state: s, marks: half } }, gen().markets),
    );
    applyEntry(s, 4000, [payout]);
    const all: PeriodFigures = { bounds: { kind: "all", start: null, end: 5000 }, start: null, end: { state: s, marks: half } };
    const rows = byAddress(traderFigures(all, gen().markets));
    // alice: 50 YES won; the payout paid 49 (a winnings fee of 1) and burned them: 35 at resolution, 34 after.
    assert.equal(atResolution.get(alice)?.pnl, 35n);
    assert.equal(rows.get(alice)?.pnl, 34n);
    assert.equal(rows.get(bob)?.pnl, -61n);
    assert.equal(rows.get(carol)?.pnl, 25n);
    assert.deepEqual(
      [alice, bob, carol].map((a) => [rows.get(a)?.settledMarkets, rows.get(a)?.wins, rows.get(a)?.closedCalls]),
      [
        [1, 1, 1],
        [1, 0, 1],
        [1, 1, 1],
      ],
    );
    assert.deepEqual([rows.get(alice)?.closedPnl, rows.get(alice)?.closedPaid], [35n, 40n]);
    // The period from the snapshot before resolution: alice stood at 10, so it made her 24.
    const late: PeriodFigures = { bounds: { kind: "7d", start: 2500, end: 5000 }, start: { state: mid, marks: half }, end: all.end };
    const lateRows = byAddress(traderFigures(late, gen().markets));
    assert.deepEqual([lateRows.get(alice)?.pnl, lateRows.get(alice)?.volume, lateRows.get(alice)?.settledMarkets], [24n, 0n, 1]);
    // The snapshot did not move with the pass.
    assert.equal(mid.trading.get(alice)?.get("1")?.settled, 0);
    // WIN_RATE and ROI need 3 settled markets / closed calls: no one yet.
    assert.equal(rankTraders([...rows.values()], "WIN_RATE").length, 0);
    assert.equal(rankTraders([...rows.values()], "ROI").length, 0);
    assert.deepEqual(
      rankTraders([...rows.values()], "WINS")
        .slice(0, 2)
        .map((r) => r.address),
      [alice, carol],
    );
  });

  it("a call closes when the shares are sold out, with its realised P&L and cost", () => {
    const s = emptyState();
    applyEntry(s, 1000, [{ type: "LMSR_TRADE", account: carol, marketId: 1n, side: 1, direction: "BUY", shares: 10n, collateral: 6n, fee: 1n }]);
    applyEntry(s, 2000, [{ type: "LMSR_TRADE", account: carol, marketId: 1n, side: 1, direction: "SELL", shares: 10n, collateral: 9n, fee: 0n }]);
    const t = s.trading.get(carol)?.get("1");
    assert.deepEqual([t?.closedCalls, t?.closedPnl, t?.closedPaid, t?.volume, t?.cash], [1, 2n, 7n, 15n, 2n]);
  });

  it("ranks creators by markets ended unchallenged and voters by rewards", () => {
    const s = emptyState();
    applyEntry(s, 1000, [mint, stake]);
    applyEntry(s, 3000, [resolved, reward]);
    const p: PeriodFigures = { bounds: { kind: "all", start: null, end: 5000 }, start: null, end: { state: s, marks: half } };
    const creators = rankCreators(creatorFigures(p, gen().markets));
    assert.deepEqual(
      creators.map((c) => [c.address, c.marketsCreated, c.marketsEnded, c.unchallenged, c.overturned, c.volume]),
      [[creator, 1, 1, 1, 0, 100n]],
    );
    const voters = rankVoters(voterFigures(p, gen().markets));
    assert.deepEqual(
      voters.map((v) => [v.address, v.ballots, v.rewarded, v.staked, v.rewards]),
      [[dave, 1, 1, 10n, 4n]],
    );
    // A market challenged and decided against its proposal counts as overturned.
    const c = emptyState();
    applyEntry(c, 1000, [{ type: "MARKET_STATE", marketId: 1n, state: "creator_proposal", outcome: 1 }]);
    applyEntry(c, 2000, [{ type: "MARKET_STATE", marketId: 1n, state: "challenge", outcome: 1 }, resolved]);
    const over = creatorFigures({ ...p, end: { state: c, marks: half } }, gen().markets);
    assert.deepEqual([over[0]?.overturned, over[0]?.unchallenged], [1, 0]);
  });

  it("periods are calendar periods in UTC, the season's clamped inside it", () => {
    const wed = Date.parse("2026-11-25T15:00:00Z");
    assert.equal(new Date(weekStart(wed)).toISOString(), "2026-11-23T00:00:00.000Z");
    assert.equal(new Date(weekStart(Date.parse("2026-11-23T00:00:00Z"))).toISOString(), "2026-11-23T00:00:00.000Z");
    assert.equal(new Date(weekStart(Date.parse("2026-11-22T23:59:59Z"))).toISOString(), "2026-11-16T00:00:00.000Z");
    assert.equal(new Date(monthStart(wed)).toISOString(), "2026-11-01T00:00:00.000Z");
    const season = { start: Date.parse("2026-09-01T00:00:00Z"), end: Date.parse("2026-12-01T00:00:00Z") };
    assert.deepEqual(boundsOf("season", wed, season), { kind: "season", start: season.start, end: wed });
    // After the season: its last week and month, ending with it.
    const later = Date.parse("2026-12-09T00:00:00Z");
    assert.deepEqual(boundsOf("season7d", later, season), { kind: "season7d", start: Date.parse("2026-11-30T00:00:00Z"), end: season.end });
    assert.deepEqual(boundsOf("season30d", later, season), { kind: "season30d", start: Date.parse("2026-11-01T00:00:00Z"), end: season.end });
    // Before it: empty.
    const early = Date.parse("2026-08-01T00:00:00Z");
    assert.deepEqual(boundsOf("season", early, season), { kind: "season", start: season.start, end: season.start });
  });

  it("a generation id is a UUIDv7 carrying its instant and last journal seq", () => {
    const at = Date.parse("2026-11-29T12:00:00.123Z");
    const id = uuidV7(at, 123_456_789);
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(generationOf(id), { asOf: at, lastSeq: 123_456_789 });
    assert.deepEqual(generationOf(uuidV7(at, 0)), { asOf: at, lastSeq: 0 });
    assert.equal(generationOf("3f2504e0-4f89-41d3-9a0c-0305e82c3301"), null);
  });
});
