import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { bpsOf, BPS_DENOMINATOR, CHALLENGE_SPLIT, CREATOR_BOND, MIA_SLASH_SPLIT, PM_UNIT, QUORUM, VOTE_STAKE_UNITS, WINDOWS } from "./rules";

describe("protocol values", () => {
  it("split every slashed bond without promising more than the bond", () => {
    assert.equal(CHALLENGE_SPLIT.winnerBps + CHALLENGE_SPLIT.treasuryBps + CHALLENGE_SPLIT.voterPoolBps, BPS_DENOMINATOR);
    assert.ok(MIA_SLASH_SPLIT.keeperBps + MIA_SLASH_SPLIT.treasuryBps <= BPS_DENOMINATOR, "the voter pool is a remainder >= 0");
    assert.ok(CREATOR_BOND.minUnits <= CREATOR_BOND.maxUnits);
  });

  it("are integers: seconds, basis points, PM units (10 PM = 10_000_000 units)", () => {
    for (const s of Object.values(WINDOWS)) assert.ok(Number.isInteger(s) && s > 0);
    assert.equal(PM_UNIT, 1_000_000n);
    assert.equal(CREATOR_BOND.minUnits, 10_000_000n);
    assert.equal(VOTE_STAKE_UNITS, 10_000_000n);
    assert.ok(Number.isInteger(QUORUM.lowExposure) && QUORUM.lowExposure >= 1 && QUORUM.highExposure >= QUORUM.lowExposure);
  });

  it("round shares down", () => {
    assert.equal(bpsOf(3n, 2_500), 0n);
    assert.equal(bpsOf(50_000_000n, 2_500), 12_500_000n);
    assert.equal(bpsOf(7n, 5_000), 3n);
  });
});
