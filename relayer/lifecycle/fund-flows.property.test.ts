import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import fc from "fast-check";
import { challengerRightFlows, challengerWrongFlows, creationBond, miaSlash, neutralVoidFlows, unchallengedBondFlows } from "./fund-flows";
import { BPS_DENOMINATOR, CHALLENGE_SPLIT, CREATOR_BOND, MIA_SLASH_SPLIT, PM_UNIT } from "./rules";
import type { Ballot } from "./states";
import { account, CHALLENGER, CREATOR, KEEPER } from "./test-support/fixtures";
import { escrowChange, paidTo, totalOf, type Transfer } from "./transfers";
import { isBinding, refundSession, settleSession } from "./vote-settlement";

const bond = fc.bigInt({ min: 1n, max: 10_000n * PM_UNIT });
const stake = fc.bigInt({ min: 1n, max: 100n * PM_UNIT });
const pool = fc.bigInt({ min: 0n, max: 1_000n * PM_UNIT });
const ballots = fc.array(fc.record({ voterIndex: fc.nat(40), outcome: fc.integer({ min: 0, max: 2 }), stake }), { maxLength: 25 });
const toBallots = (bs: { voterIndex: number; outcome: number; stake: bigint }[]): Ballot[] =>
  // One ballot per voter, as the guard enforces.
  [...new Map(bs.map((b) => [b.voterIndex, b])).values()].map((b) => ({ voter: account(0x200 + b.voterIndex), outcome: b.outcome, stake: b.stake }));

/** Every transfer moves a positive amount out of the escrow being settled, and together they empty it exactly. */
function assertEmpties(transfers: readonly Transfer[], escrow: "bond_escrow" | "vote_escrow", locked: bigint) {
  for (const t of transfers) assert.ok(t.amount > 0n, `${t.op} of ${t.amount}`);
  const outOfEscrow = transfers.filter((t) => t.from === escrow);
  assert.equal(totalOf(outOfEscrow), locked, "the transfers pay out exactly what was locked");
}

/** The exact share (a fraction of a unit) of `amount` at `bps`, as a numerator over BPS_DENOMINATOR. */
const exact = (amount: bigint, bps: number) => amount * BigInt(bps);
const D = BigInt(BPS_DENOMINATOR);

describe("creation bond", () => {
  it("is seed × ratio rounded down, clamped to [min, max]; an order book pays the minimum", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 100_000n * PM_UNIT }), (seed) => {
        const b = creationBond(seed);
        assert.ok(b >= CREATOR_BOND.minUnits && b <= CREATOR_BOND.maxUnits);
        const raw = (seed * BigInt(CREATOR_BOND.ratioOfSeedBps)) / D;
        if (raw >= CREATOR_BOND.minUnits && raw <= CREATOR_BOND.maxUnits) assert.equal(b, raw);
      }),
    );
    assert.equal(creationBond(null), CREATOR_BOND.minUnits);
  });
});

describe("bond flows", () => {
  it("MIA slash: keeper min(bps share, cap), treasury its bps share, the voter pool the rest; no keeper, its share to the pool", () => {
    fc.assert(
      fc.property(bond, fc.boolean(), (b, withKeeper) => {
        const transfers = miaSlash({ creator: CREATOR, bond: b, keeper: withKeeper ? KEEPER : null });
        assertEmpties(transfers, "bond_escrow", b);
        const uncapped = exact(b, MIA_SLASH_SPLIT.keeperBps) / D;
        const keeper = withKeeper ? (uncapped < MIA_SLASH_SPLIT.keeperCapUnits ? uncapped : MIA_SLASH_SPLIT.keeperCapUnits) : 0n;
        assert.equal(paidTo(transfers, KEEPER), keeper);
        assert.equal(paidTo(transfers, "treasury"), exact(b, MIA_SLASH_SPLIT.treasuryBps) / D);
        assert.equal(paidTo(transfers, "vote_escrow"), b - keeper - exact(b, MIA_SLASH_SPLIT.treasuryBps) / D);
        assert.ok(transfers.every((t) => t.op === "BOND_AWARD" || t.op === "BOND_SLASH"));
      }),
    );
  });

  it("challenger right / wrong: the winner's bond back, the loser's split by the rules' bps, the treasury taking the dust", () => {
    fc.assert(
      fc.property(bond, fc.boolean(), (b, challengerRight) => {
        const parties = { creator: CREATOR, challenger: CHALLENGER, bond: b };
        const transfers = challengerRight ? challengerRightFlows(parties) : challengerWrongFlows(parties);
        assertEmpties(transfers, "bond_escrow", 2n * b);
        const [winner, loser] = challengerRight ? [CHALLENGER, CREATOR] : [CREATOR, CHALLENGER];
        const winnerShare = exact(b, CHALLENGE_SPLIT.winnerBps) / D;
        const poolShare = exact(b, CHALLENGE_SPLIT.voterPoolBps) / D;
        assert.equal(paidTo(transfers, winner), b + winnerShare, "own bond plus the winner's share");
        assert.equal(paidTo(transfers, loser), 0n);
        assert.equal(paidTo(transfers, "vote_escrow"), poolShare);
        const treasury = paidTo(transfers, "treasury");
        // Each floor loses less than one unit, so the treasury gets its exact share plus less than two units.
        assert.ok(treasury * D >= exact(b, CHALLENGE_SPLIT.treasuryBps) && treasury * D < exact(b, CHALLENGE_SPLIT.treasuryBps) + 2n * D);
        assert.ok(winnerShare * D <= exact(b, CHALLENGE_SPLIT.winnerBps) && (winnerShare + 1n) * D > exact(b, CHALLENGE_SPLIT.winnerBps));
        assert.ok(transfers.filter((t) => t.op === "BOND_SLASH").every((t) => "bondOf" in t && t.bondOf === loser));
      }),
    );
  });

  it("unchallenged and neutral void: every bond back in full", () => {
    fc.assert(
      fc.property(bond, (b) => {
        const unchallenged = unchallengedBondFlows(CREATOR, b);
        assertEmpties(unchallenged, "bond_escrow", b);
        assert.equal(paidTo(unchallenged, CREATOR), b);
        const neutral = neutralVoidFlows({ creator: CREATOR, challenger: CHALLENGER, bond: b });
        assertEmpties(neutral, "bond_escrow", 2n * b);
        assert.deepEqual([paidTo(neutral, CREATOR), paidTo(neutral, CHALLENGER)], [b, b]);
      }),
    );
  });
});

describe("vote settlement", () => {
  it("binding: correct voters get stake back plus an equal share of the forfeited stakes and pool; dust or everything without a correct voter to the treasury", () => {
    fc.assert(
      fc.property(ballots, pool, fc.integer({ min: 0, max: 2 }), (raw, p, outcome) => {
        const bs = toBallots(raw);
        const transfers = settleSession({ session: 1, ballots: bs, pool: p, correctOutcome: outcome });
        const stakes = bs.reduce((s, b) => s + b.stake, 0n);
        assertEmpties(transfers, "vote_escrow", stakes + p);
        assert.deepEqual(escrowChange(transfers), { bond_escrow: 0n, vote_escrow: -(stakes + p) });
        const correct = bs.filter((b) => b.outcome === outcome);
        const rewards = stakes - correct.reduce((s, b) => s + b.stake, 0n) + p;
        const sweep = paidTo(transfers, "treasury");
        if (correct.length === 0) {
          assert.equal(sweep, rewards, "no correct voter: everything to the treasury");
          return;
        }
        const share = rewards / BigInt(correct.length);
        for (const b of correct) assert.equal(paidTo(transfers, b.voter), b.stake + share);
        for (const b of bs.filter((x) => x.outcome !== outcome)) assert.equal(paidTo(transfers, b.voter), 0n, "an incorrect stake is not returned");
        assert.ok(sweep < BigInt(correct.length), "only the rounding remainder goes to the treasury");
        assert.equal(sweep, rewards - share * BigInt(correct.length));
      }),
    );
  });

  it("not binding (below quorum, void) and restart: every stake back in full; at finality the pool to the treasury, on restart it stays", () => {
    fc.assert(
      fc.property(ballots, pool, (raw, p) => {
        const bs = toBallots(raw);
        const stakes = bs.reduce((s, b) => s + b.stake, 0n);
        const settled = settleSession({ session: 2, ballots: bs, pool: p, correctOutcome: null });
        assertEmpties(settled, "vote_escrow", stakes + p);
        for (const b of bs) assert.equal(paidTo(settled, b.voter), b.stake);
        assert.equal(paidTo(settled, "treasury"), p);
        const refunded = refundSession(2, bs);
        assertEmpties(refunded, "vote_escrow", stakes);
        assert.ok(refunded.every((t) => t.op === "STAKE_RETURN" && t.session === 2));
      }),
    );
  });

  it("binds only at quorum with an outcome as the verdict", () => {
    assert.equal(isBinding({ kind: "unique", outcome: 0, counts: [3, 0] }, 1), true, "the council may overrule the tally; the session still binds");
    assert.equal(isBinding({ kind: "deadlock", counts: [2, 2] }, 0), true);
    assert.equal(isBinding({ kind: "unique", outcome: 0, counts: [3, 0] }, "void"), false);
    assert.equal(isBinding({ kind: "no_quorum", counts: [2, 0] }, 0), false);
  });
});
