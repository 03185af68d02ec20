import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { creatorResolveBy, keeperWindowEndsAt, voteEndsAt, councilReviewEndsAt, challengeBy } from "./deadlines";
import { dueTransitions } from "./due";
import { canTrade } from "./guards";
import { cancelMarket, castBallot, challenge, councilDecide, councilRestart, createLifecycle, declareMia, propose, type LifecycleResult } from "./operations";
import { VOTE_STAKE_UNITS } from "./rules";
import { escrowBalances, type MarketLifecycle } from "./states";
import { CHALLENGER, CREATOR, DAY, HOUR, KEEPER, must, openMarket, T0, VOTERS } from "./test-support/fixtures";

const Q = 3;
const CLOSE = T0 + DAY;

function refusal(r: LifecycleResult) {
  assert.equal(r.ok, false, "expected a refusal");
  return r.ok ? null : r.refusal;
}

/** A market proposed (YES) an hour after close and challenged an hour later: the vote is open. */
function inVote(): MarketLifecycle {
  const proposed = must(propose(openMarket(), { account: CREATOR, verdict: 0, at: CLOSE + HOUR, quorum: Q })).market;
  return must(challenge(proposed, { account: CHALLENGER, at: CLOSE + 2 * HOUR, quorum: Q })).market;
}

describe("create", () => {
  it("locks the creation bond from the seed and refuses impossible terms", () => {
    const r = must(createLifecycle({ creator: CREATOR, outcomes: 2, openTime: T0, closeTime: CLOSE, seed: 500_000_000n, at: T0 }));
    assert.equal(r.market.state, "open");
    assert.deepEqual(r.steps[0].transfers, [{ op: "BOND_LOCK", from: CREATOR, to: "bond_escrow", bondOf: CREATOR, amount: 50_000_000n }]);
    assert.equal(must(createLifecycle({ creator: CREATOR, outcomes: 2, openTime: T0, closeTime: CLOSE, seed: null, at: T0 })).market.creationBond, 10_000_000n);
    assert.equal(refusal(createLifecycle({ creator: CREATOR, outcomes: 4, openTime: T0, closeTime: CLOSE, seed: null, at: T0 }))?.code, "INVALID_TERMS");
    assert.equal(refusal(createLifecycle({ creator: CREATOR, outcomes: 2, openTime: CLOSE, closeTime: CLOSE, seed: null, at: T0 }))?.code, "INVALID_TERMS");
  });
});

describe("trading and the creator's proposal", () => {
  it("trades only while open and before closeTime", () => {
    const m = openMarket();
    assert.equal(canTrade(m, CLOSE - 1), null);
    assert.deepEqual(canTrade(m, CLOSE), { code: "MARKET_CLOSED", state: "open", closeTime: CLOSE });
    const proposed = must(propose(m, { account: CREATOR, verdict: 1, at: T0 + HOUR, quorum: Q })).market;
    assert.equal(canTrade(proposed, T0 + HOUR)?.code, "MARKET_CLOSED", "a proposal stops trading");
  });

  it("accepts the creator's proposal from openTime to creatorResolveBy inclusive, once", () => {
    const m = openMarket();
    assert.deepEqual(refusal(propose(m, { account: CHALLENGER, verdict: 0, at: CLOSE, quorum: Q })), { code: "NOT_CREATOR" });
    assert.deepEqual(refusal(propose(m, { account: CREATOR, verdict: 2, at: CLOSE, quorum: Q })), { code: "INVALID_OUTCOME", outcome: 2, outcomes: 2 });
    const late = { code: "CREATOR_WINDOW_ELAPSED", creatorResolveBy: creatorResolveBy(CLOSE) };
    assert.deepEqual(refusal(propose(m, { account: CREATOR, verdict: 0, at: creatorResolveBy(CLOSE) + 1, quorum: Q })), late);
    assert.deepEqual(refusal(propose(m, { account: CREATOR, verdict: 0, at: keeperWindowEndsAt(CLOSE) + DAY, quorum: Q })), late);

    const last = must(propose(m, { account: CREATOR, verdict: "void", at: creatorResolveBy(CLOSE), quorum: Q }));
    assert.deepEqual(
      last.steps.map((s) => [s.via, s.from, s.to, s.at]),
      [
        ["closeTimeReached", "open", "closed", CLOSE],
        ["propose", "closed", "creator_proposal", creatorResolveBy(CLOSE)],
      ],
    );
    assert.deepEqual(last.market.proposal, { verdict: "void", at: creatorResolveBy(CLOSE) });
    assert.equal(refusal(propose(last.market, { account: CREATOR, verdict: 0, at: creatorResolveBy(CLOSE), quorum: Q }))?.code, "WRONG_STATE");

    const future = must(createLifecycle({ creator: CREATOR, outcomes: 2, openTime: T0 + HOUR, closeTime: CLOSE, seed: null, at: T0 })).market;
    assert.deepEqual(refusal(propose(future, { account: CREATOR, verdict: 0, at: T0, quorum: Q })), { code: "CREATOR_WINDOW_NOT_OPEN", openTime: T0 + HOUR });
  });

  it("makes an unchallenged proposal final at challengeBy and returns the bond; a challenge then is too late", () => {
    const proposed = must(propose(openMarket(), { account: CREATOR, verdict: 1, at: CLOSE + HOUR, quorum: Q })).market;
    const deadline = challengeBy(CLOSE + HOUR);
    assert.deepEqual(dueTransitions(proposed, deadline - 1, Q).steps, []);
    const final = dueTransitions(proposed, deadline, Q);
    assert.deepEqual(
      final.steps.map((s) => [s.via, s.to, s.verdict, s.at]),
      [["challengeWindowElapsed", "resolved", 1, deadline]],
    );
    assert.deepEqual(final.steps[0].transfers, [{ op: "BOND_RETURN", from: "bond_escrow", to: CREATOR, bondOf: CREATOR, amount: 50_000_000n }]);
    assert.deepEqual(refusal(challenge(proposed, { account: CHALLENGER, at: deadline, quorum: Q })), {
      code: "CHALLENGE_WINDOW_CLOSED",
      challengeBy: deadline,
    });
  });
});

describe("challenge and vote", () => {
  it("locks the challenge bond, opens session 1 at once, and refuses a second challenge", () => {
    const proposed = must(propose(openMarket(), { account: CREATOR, verdict: 0, at: CLOSE + HOUR, quorum: Q })).market;
    const r = must(challenge(proposed, { account: CHALLENGER, at: CLOSE + 2 * HOUR, quorum: 7 }));
    assert.deepEqual(
      r.steps.map((s) => [s.from, s.to]),
      [
        ["creator_proposal", "challenge"],
        ["challenge", "human_voting"],
      ],
    );
    assert.deepEqual(r.steps[0].transfers, [{ op: "BOND_LOCK", from: CHALLENGER, to: "bond_escrow", bondOf: CHALLENGER, amount: 50_000_000n }]);
    assert.deepEqual(r.market.vote, { session: 1, openedAt: CLOSE + 2 * HOUR, quorum: 7, ballots: [], settled: false });
    assert.deepEqual(escrowBalances(r.market), { bond: 100_000_000n, vote: 0n });
    assert.deepEqual(refusal(challenge(r.market, { account: VOTERS[0], at: CLOSE + 3 * HOUR, quorum: Q })), { code: "ALREADY_CHALLENGED" });
    assert.equal(refusal(challenge(openMarket(), { account: CHALLENGER, at: T0, quorum: Q }))?.code, "WRONG_STATE");
  });

  it("takes one staked ballot per voter for a valid outcome until endsAt", () => {
    const m = inVote();
    const endsAt = voteEndsAt(CLOSE + 2 * HOUR);
    const r = must(castBallot(m, { voter: VOTERS[0], outcome: 1, at: CLOSE + 3 * HOUR, quorum: Q }));
    assert.deepEqual(r.steps, [
      {
        via: "castBallot",
        at: CLOSE + 3 * HOUR,
        from: "human_voting",
        to: "human_voting",
        verdict: null,
        tally: null,
        session: 1,
        transfers: [{ op: "STAKE_LOCK", from: VOTERS[0], to: "vote_escrow", session: 1, amount: VOTE_STAKE_UNITS }],
      },
    ]);
    assert.deepEqual(refusal(castBallot(r.market, { voter: VOTERS[0], outcome: 0, at: CLOSE + 4 * HOUR, quorum: Q })), { code: "ALREADY_VOTED", session: 1 });
    assert.deepEqual(refusal(castBallot(r.market, { voter: VOTERS[1], outcome: 2, at: CLOSE + 4 * HOUR, quorum: Q })), {
      code: "INVALID_OUTCOME",
      outcome: 2,
      outcomes: 2,
    });
    assert.deepEqual(refusal(castBallot(r.market, { voter: VOTERS[1], outcome: 0, at: endsAt, quorum: Q })), { code: "VOTE_CLOSED", session: 1, endsAt });
    assert.equal(refusal(castBallot(openMarket(), { voter: VOTERS[1], outcome: 0, at: T0, quorum: Q }))?.code, "WRONG_STATE");
  });
});

describe("council", () => {
  it("acts only between the vote's end and councilReviewEndsAt", () => {
    const m = inVote();
    const endsAt = voteEndsAt(CLOSE + 2 * HOUR);
    assert.deepEqual(refusal(councilDecide(m, { verdict: 1, at: endsAt - 1, quorum: Q })), { code: "COUNCIL_TOO_EARLY", voteEndsAt: endsAt });
    assert.deepEqual(refusal(councilDecide(m, { verdict: 5, at: endsAt, quorum: Q })), { code: "INVALID_OUTCOME", outcome: 5, outcomes: 2 });
    const reviewEndsAt = councilReviewEndsAt(endsAt);
    assert.deepEqual(refusal(councilDecide(m, { verdict: 1, at: reviewEndsAt, quorum: Q })), {
      code: "COUNCIL_WINDOW_CLOSED",
      councilReviewEndsAt: reviewEndsAt,
    });
    const decided = must(councilDecide(m, { verdict: "void", at: endsAt, quorum: Q }));
    assert.deepEqual(
      decided.steps.map((s) => [s.via, s.to, s.verdict]),
      [
        ["voteEnded", "council_review", null],
        ["councilDecide", "void", "void"],
      ],
    );
    assert.deepEqual(escrowBalances(decided.market), { bond: 0n, vote: 0n });
    assert.equal(refusal(councilRestart(decided.market, { at: endsAt + 1, quorum: Q }))?.code, "WRONG_STATE");
  });

  it("restarts: refunds the session's stakes, keeps the pool and the quorum, opens session 2 with a new deadline", () => {
    let m = inVote();
    for (const v of VOTERS.slice(0, 2)) m = must(castBallot(m, { voter: v, outcome: 0, at: CLOSE + 3 * HOUR, quorum: Q })).market;
    const endsAt = voteEndsAt(CLOSE + 2 * HOUR);
    const r = must(councilRestart(m, { at: endsAt + HOUR, quorum: 7 }));
    assert.deepEqual(
      r.steps.at(-1)?.transfers.map((t) => [t.op, t.to, t.amount]),
      VOTERS.slice(0, 2).map((v) => ["STAKE_RETURN", v, VOTE_STAKE_UNITS]),
    );
    assert.deepEqual(r.market.vote, { session: 2, openedAt: endsAt + HOUR, quorum: 3, ballots: [], settled: false });
    assert.deepEqual(
      r.steps.map((s) => [s.via, s.session]),
      [
        ["voteEnded", 1],
        ["councilRestart", 2],
      ],
      "the session that ended, then the one opened",
    );
    assert.equal(
      must(castBallot(r.market, { voter: VOTERS[0], outcome: 1, at: endsAt + 2 * HOUR, quorum: Q })).steps[0].transfers[0].op,
      "STAKE_LOCK",
      "a voter of session 1 votes again in session 2",
    );
  });
});

describe("creator missing and the keeper", () => {
  it("lets any agent but the creator declare the miss during the keeper window, slashing the bond", () => {
    const m = openMarket();
    assert.deepEqual(refusal(declareMia(m, { account: KEEPER, at: creatorResolveBy(CLOSE), quorum: Q })), {
      code: "WRONG_STATE",
      state: "closed",
      expected: ["creator_mia"],
    });
    const at = creatorResolveBy(CLOSE) + 1;
    assert.deepEqual(refusal(declareMia(m, { account: CREATOR, at, quorum: Q })), { code: "CREATOR_NOT_ELIGIBLE" });
    const r = must(declareMia(m, { account: KEEPER, at, quorum: Q }));
    assert.deepEqual(
      r.steps.map((s) => [s.via, s.from, s.to]),
      [
        ["closeTimeReached", "open", "closed"],
        ["creatorWindowMissed", "closed", "creator_mia"],
        ["declareMia", "creator_mia", "human_voting"],
      ],
    );
    assert.deepEqual(
      r.steps[2].transfers.map((t) => [t.op, t.to, t.amount]),
      [
        ["BOND_AWARD", KEEPER, 5_000_000n],
        ["BOND_SLASH", "treasury", 25_000_000n],
        ["BOND_AWARD", "vote_escrow", 20_000_000n],
      ],
    );
    assert.deepEqual(escrowBalances(r.market), { bond: 0n, vote: 20_000_000n });
    assert.deepEqual(refusal(declareMia(m, { account: KEEPER, at: keeperWindowEndsAt(CLOSE), quorum: Q })), {
      code: "KEEPER_WINDOW_CLOSED",
      keeperWindowEndsAt: keeperWindowEndsAt(CLOSE),
    });
    assert.deepEqual(
      refusal(declareMia(r.market, { account: CHALLENGER, at: at + 1, quorum: Q })),
      { code: "WRONG_STATE", state: "human_voting", expected: ["creator_mia"] },
      "declared already",
    );
  });
});

describe("operator cancel", () => {
  it("voids a market before any proposal and returns the creation bond", () => {
    const r = must(cancelMarket(openMarket(), { at: T0 + HOUR, quorum: Q }));
    assert.deepEqual(
      r.steps.map((s) => [s.via, s.from, s.to, s.verdict]),
      [["cancel", "open", "void", "void"]],
    );
    assert.deepEqual(r.steps[0].transfers, [{ op: "BOND_RETURN", from: "bond_escrow", to: CREATOR, bondOf: CREATOR, amount: 50_000_000n }]);
    assert.equal(refusal(cancelMarket(inVote(), { at: CLOSE + 3 * HOUR, quorum: Q }))?.code, "WRONG_STATE");
  });
});
