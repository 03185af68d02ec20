import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { HIGH_EXPOSURE_THRESHOLD_UNITS, QUORUM } from "./rules";
import { exposureOf, quorumFor, tally } from "./tally";

const ballots = (...outcomes: number[]) => outcomes.map((outcome) => ({ outcome }));

describe("tally", () => {
  it("names a unique highest count at quorum, a tie at quorum a deadlock, and anything below quorum no quorum", () => {
    assert.deepEqual(tally(ballots(0, 1, 1), 2, 3), { kind: "unique", outcome: 1, counts: [1, 2] });
    assert.deepEqual(tally(ballots(0, 1, 2, 2, 0), 3, 3), { kind: "deadlock", counts: [2, 1, 2] });
    assert.deepEqual(tally(ballots(1, 1), 2, 3), { kind: "no_quorum", counts: [0, 2] }, "unanimous but below quorum");
    assert.deepEqual(tally([], 3, 1), { kind: "no_quorum", counts: [0, 0, 0] });
    assert.deepEqual(tally(ballots(2, 2, 2, 2, 2, 2, 1), 3, 7), { kind: "unique", outcome: 2, counts: [0, 1, 6] });
  });

  it("throws on a ballot outside the outcomes (the guard refuses it first)", () => {
    assert.throws(() => tally(ballots(2), 2, 1), RangeError);
  });
});

describe("exposure and quorum", () => {
  it("needs the high quorum only above the threshold", () => {
    assert.equal(exposureOf(HIGH_EXPOSURE_THRESHOLD_UNITS), "low");
    assert.equal(exposureOf(HIGH_EXPOSURE_THRESHOLD_UNITS + 1n), "high");
    assert.equal(quorumFor(0n), QUORUM.lowExposure);
    assert.equal(quorumFor(HIGH_EXPOSURE_THRESHOLD_UNITS + 1n), QUORUM.highExposure);
    assert.equal(quorumFor(101n, 100n), QUORUM.highExposure, "a collateral's own threshold");
  });
});
