import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import fc from "fast-check";
import { councilReviewEndsAt, creatorMissedAt, creatorResolveBy, deadlinesOf, keeperWindowEndsAt, voteEndsAt, challengeBy } from "./deadlines";
import { dueTransitions } from "./due";
import { castBallot, challenge, propose } from "./operations";
import { WINDOWS } from "./rules";
import { escrowBalances } from "./states";
import { CHALLENGER, CREATOR, DAY, HOUR, must, openMarket, T0, VOTERS } from "./test-support/fixtures";

const CLOSE = T0 + DAY;

describe("deadlines", () => {
  it("follow the rules' windows from closeTime, the proposal and the session's opening", () => {
    assert.equal(creatorResolveBy(CLOSE), CLOSE + WINDOWS.creatorGraceSecondsAfterClose * 1000);
    assert.equal(creatorMissedAt(CLOSE), creatorResolveBy(CLOSE) + 1);
    assert.equal(keeperWindowEndsAt(CLOSE), creatorResolveBy(CLOSE) + WINDOWS.keeperWindowSeconds * 1000);
    assert.equal(challengeBy(CLOSE), CLOSE + WINDOWS.challengeSeconds * 1000);
    assert.equal(voteEndsAt(CLOSE), CLOSE + WINDOWS.humanVoteWindowSeconds * 1000);
    assert.equal(councilReviewEndsAt(CLOSE), CLOSE + WINDOWS.councilReviewSeconds * 1000);
  });

  it("name the deadline of each stage in nextActionDeadline", () => {
    const open = openMarket();
    assert.deepEqual(deadlinesOf(open), {
      closeTime: CLOSE,
      creatorResolveBy: creatorResolveBy(CLOSE),
      challengeBy: null,
      keeperWindowEndsAt: null,
      humanVoteEndsAt: null,
      councilReviewEndsAt: null,
      nextActionDeadline: CLOSE,
    });
    const closed = dueTransitions(open, CLOSE, 3).market;
    assert.equal(deadlinesOf(closed).nextActionDeadline, creatorResolveBy(CLOSE));
    const mia = dueTransitions(open, creatorMissedAt(CLOSE), 3).market;
    assert.equal(mia.state, "creator_mia");
    assert.equal(deadlinesOf(mia).nextActionDeadline, keeperWindowEndsAt(CLOSE));
    const proposed = must(propose(open, { account: CREATOR, verdict: 0, at: CLOSE + HOUR, quorum: 3 })).market;
    assert.equal(deadlinesOf(proposed).nextActionDeadline, challengeBy(CLOSE + HOUR));
    const voting = must(challenge(proposed, { account: CHALLENGER, at: CLOSE + 2 * HOUR, quorum: 3 })).market;
    const d = deadlinesOf(voting);
    assert.equal(d.nextActionDeadline, voteEndsAt(CLOSE + 2 * HOUR));
    assert.equal(d.councilReviewEndsAt, councilReviewEndsAt(voteEndsAt(CLOSE + 2 * HOUR)));
    assert.equal(d.keeperWindowEndsAt, null, "a proposed market never had a keeper window");
    const review = dueTransitions(voting, d.humanVoteEndsAt!, 3).market;
    assert.equal(deadlinesOf(review).nextActionDeadline, d.councilReviewEndsAt);
    const final = dueTransitions(review, d.councilReviewEndsAt!, 3).market;
    assert.equal(final.state, "void", "no ballots: no quorum, neutral void");
    assert.equal(deadlinesOf(final).nextActionDeadline, null);
  });
});

describe("dueTransitions", () => {
  it("applies every transition that came due, each at its own deadline, when the clock runs late", () => {
    const r = dueTransitions(openMarket(), T0 + 60 * DAY, 3);
    const opened = keeperWindowEndsAt(CLOSE);
    assert.deepEqual(
      r.steps.map((s) => [s.via, s.from, s.to, s.at]),
      [
        ["closeTimeReached", "open", "closed", CLOSE],
        ["creatorWindowMissed", "closed", "creator_mia", creatorMissedAt(CLOSE)],
        ["keeperWindowElapsed", "creator_mia", "human_voting", opened],
        ["voteEnded", "human_voting", "council_review", voteEndsAt(opened)],
        ["councilSilent", "council_review", "void", councilReviewEndsAt(voteEndsAt(opened))],
      ],
    );
    // No keeper: the keeper's share stays in the voter pool; nobody voted, so the pool goes to the treasury.
    assert.deepEqual(
      r.steps[2].transfers.map((t) => [t.op, t.to, t.amount]),
      [
        ["BOND_SLASH", "treasury", 25_000_000n],
        ["BOND_AWARD", "vote_escrow", 25_000_000n],
      ],
    );
    assert.deepEqual(
      r.steps[4].transfers.map((t) => [t.op, t.to, t.amount]),
      [["VOTE_ESCROW_SWEEP", "treasury", 25_000_000n]],
    );
    assert.deepEqual(r.steps[3].tally, { kind: "no_quorum", counts: [0, 0] });
    assert.deepEqual(escrowBalances(r.market), { bond: 0n, vote: 0n });
    assert.deepEqual(dueTransitions(r.market, T0 + 90 * DAY, 3).steps, [], "a final market has nothing due");
  });

  it("lets a unique result at quorum stand when the council stays silent", () => {
    const proposed = must(propose(openMarket(), { account: CREATOR, verdict: 0, at: CLOSE + HOUR, quorum: 3 })).market;
    let m = must(challenge(proposed, { account: CHALLENGER, at: CLOSE + 2 * HOUR, quorum: 3 })).market;
    [1, 1, 0].forEach((outcome, i) => (m = must(castBallot(m, { voter: VOTERS[i], outcome, at: CLOSE + 3 * HOUR, quorum: 3 })).market));
    const r = dueTransitions(m, T0 + 30 * DAY, 3);
    assert.deepEqual(
      r.steps.map((s) => [s.via, s.to, s.verdict]),
      [
        ["voteEnded", "council_review", null],
        ["councilSilent", "resolved", 1],
      ],
    );
    assert.deepEqual(r.steps[1].tally, { kind: "unique", outcome: 1, counts: [1, 2] });
  });

  it("reaches the same record and steps whether the clock ticks once or at any instants between", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 12 * DAY }), { maxLength: 6 }), fc.constantFrom(0, 1, 2), (cuts, path) => {
        let start = openMarket();
        if (path >= 1) start = must(propose(start, { account: CREATOR, verdict: 1, at: CLOSE + HOUR, quorum: 3 })).market;
        if (path === 2) start = must(challenge(start, { account: CHALLENGER, at: CLOSE + 2 * HOUR, quorum: 3 })).market;
        const end = T0 + 13 * DAY;
        const once = dueTransitions(start, end, 3);
        let m = start;
        const steps = [];
        for (const at of [...cuts.map((c) => T0 + c).sort((a, b) => a - b), end]) {
          const r = dueTransitions(m, at, 3);
          m = r.market;
          steps.push(...r.steps);
        }
        assert.deepEqual(m, once.market);
        assert.deepEqual(steps, once.steps);
      }),
    );
  });
});
