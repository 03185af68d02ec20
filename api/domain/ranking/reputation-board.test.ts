/**
 * The reputation leaderboard by role on journal ops written by hand: each role's score is the percentile on its
 * board, `overall` sums the three over three (a missing role counts 0), a role's board lists only its ranked
 * accounts, and ties go by address.
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { Address } from "viem";
import type { JournalOp } from "../../../decoder";
import type { MarketFacts, PeriodFigures } from "./generation";
import { percentileBps, reputationRows } from "./reputation-board";
import { applyEntry, emptyState, type Marks } from "./trading-pass";

const alice = "0x00000000000000000000000000000000000a11ce" as Address;
const bob = "0x0000000000000000000000000000000000000b0b" as Address;
const carol = "0x00000000000000000000000000000000000ca201" as Address;
const dave = "0x0000000000000000000000000000000000000da7" as Address;
const creator = "0x00000000000000000000000000000000000c4ea7" as Address;

const facts = (by: Address): MarketFacts => ({ address: "0xm", category: "SPORTS", collateral: { symbol: "PM", decimals: 6 }, creator: by, createdAt: 500 });
const kept = new Map([
  ["1", facts(creator)],
  ["2", facts(alice)],
]);
const half: Marks = (m) => (m === "1" || m === "2" ? [500_000, 500_000] : undefined);
const ops: JournalOp[][] = [
  [
    { type: "MATCH", maker: alice, taker: bob, marketId: 1n, side: 0, kind: 2, shares: 100n, priceBps: 4000, fee: 1n },
    { type: "MATCH", maker: alice, taker: carol, marketId: 1n, side: 0, kind: 0, shares: 50n, priceBps: 5000, fee: 0n },
    { type: "STAKE_LOCK", marketId: 1n, session: 1, account: dave, amount: 10n, ballotHash: `0x${"ab".repeat(32)}` },
    { type: "STAKE_LOCK", marketId: 2n, session: 1, account: alice, amount: 10n, ballotHash: `0x${"cd".repeat(32)}` },
  ],
  [
    { type: "MARKET_STATE", marketId: 1n, state: "resolved", outcome: 0 },
    { type: "MARKET_STATE", marketId: 2n, state: "resolved", outcome: 1 },
    { type: "VOTE_REWARD", marketId: 1n, session: 1, account: dave, amount: 4n },
    { type: "VOTE_REWARD", marketId: 2n, session: 1, account: alice, amount: 2n },
  ],
];

function period(): PeriodFigures {
  const s = emptyState();
  ops.forEach((entry, i) => applyEntry(s, 1000 * (i + 1), entry));
  return { bounds: { kind: "all", start: null, end: 5000 }, start: null, end: { state: s, marks: half } };
}

describe("reputation leaderboard by role", () => {
  it("scores a rank as its percentile in basis points", () => {
    assert.deepEqual(
      [1, 2, 3].map((r) => percentileBps(r, 3)),
      [10_000, 6_666, 3_333],
    );
    assert.equal(percentileBps(1, 1), 10_000);
  });

  it("ranks each role on its own board, and overall by the three scores over three", () => {
    const p = period();
    const roles = (role: "trader" | "creator" | "juror") => reputationRows(p, kept, role).map((r) => [r.address, r.scoreBps]);
    assert.deepEqual(roles("trader"), [
      [alice, 10_000],
      [carol, 6_666],
      [bob, 3_333],
    ]);
    // Both creators ended one market unchallenged; the creator of the traded market is first by volume.
    assert.deepEqual(roles("creator"), [
      [creator, 10_000],
      [alice, 5_000],
    ]);
    assert.deepEqual(roles("juror"), [
      [dave, 10_000],
      [alice, 5_000],
    ]);
    const overall = reputationRows(p, kept, "overall");
    // alice: (10,000 + 5,000 + 5,000) / 3; a specialist at the top of one board scores a third; ties by address.
    assert.deepEqual(
      overall.map((r) => [r.address, r.scoreBps]),
      [
        [alice, 6_666],
        [dave, 3_333],
        [creator, 3_333],
        [carol, 2_222],
        [bob, 1_111],
      ],
    );
    assert.deepEqual(overall[0]!.roles, {
      trader: { rank: 1, rankedAmong: 3, scoreBps: 10_000 },
      creator: { rank: 2, rankedAmong: 2, scoreBps: 5_000 },
      juror: { rank: 2, rankedAmong: 2, scoreBps: 5_000 },
    });
    assert.equal(overall[4]!.roles.creator, null);
  });
});
