/**
 * The clock's side of the state machine: every transition whose deadline came due by `at`, applied in deadline
 * order. Each takes effect at its own deadline (not at `at`), so when the clock runs late the deadlines that follow
 * (a vote opened by the clock, its end, the council's) are the same as if it had run on time.
 */
import { councilReviewEndsAt, creatorMissedAt, keeperWindowEndsAt, challengeBy, voteEndsAt } from "./deadlines";
import type { MarketLifecycle } from "./states";
import { finalize, openSession, sessionTally, slashMissingCreator, step, type Advanced, type LifecycleStep } from "./steps";

/**
 * The clock transitions of `m` that came due by `at` (close, creator_mia, the keeper window's end opening the vote,
 * challengeBy making the proposal final, the vote's end, the council's silence making the vote final), applied in
 * order. `quorum` is what a session the clock opens needs (quorumFor the market's locked collateral). A market
 * with nothing due comes back unchanged with no steps.
 */
export function dueTransitions(m: MarketLifecycle, at: number, quorum: number): Advanced {
  const steps: LifecycleStep[] = [];
  let market = m;
  for (let next = nextDue(market, at); next !== null; next = nextDue(market, at)) {
    market = next.market;
    steps.push(next.step);
  }
  return { market, steps };

  function nextDue(cur: MarketLifecycle, now: number): { market: MarketLifecycle; step: LifecycleStep } | null {
    switch (cur.state) {
      case "open":
        if (now < cur.closeTime) return null;
        return { market: { ...cur, state: "closed" }, step: step("closeTimeReached", cur.closeTime, "open", "closed") };
      case "closed": {
        const missedAt = creatorMissedAt(cur.closeTime);
        if (now < missedAt) return null;
        return { market: { ...cur, state: "creator_mia" }, step: step("creatorWindowMissed", missedAt, "closed", "creator_mia") };
      }
      case "creator_mia": {
        const ends = keeperWindowEndsAt(cur.closeTime);
        if (now < ends) return null;
        const slashed = slashMissingCreator(cur, null);
        const voting = openSession(slashed.market, ends, quorum);
        return { market: voting, step: step("keeperWindowElapsed", ends, "creator_mia", "human_voting", slashed.transfers, { session: voting.vote!.session }) };
      }
      case "creator_proposal": {
        if (cur.proposal === null) throw new Error("lifecycle invariant: creator_proposal without a proposal");
        const deadline = challengeBy(cur.proposal.at);
        if (now < deadline) return null;
        const verdict = cur.proposal.verdict;
        const final = finalize(cur, verdict, false);
        return { market: final.market, step: step("challengeWindowElapsed", deadline, cur.state, final.market.state, final.transfers, { verdict }) };
      }
      case "human_voting": {
        if (cur.vote === null) throw new Error("lifecycle invariant: human_voting without a session");
        const endsAt = voteEndsAt(cur.vote.openedAt);
        if (now < endsAt) return null;
        return {
          market: { ...cur, state: "council_review" },
          step: step("voteEnded", endsAt, "human_voting", "council_review", [], { tally: sessionTally(cur), session: cur.vote.session }),
        };
      }
      case "council_review": {
        if (cur.vote === null) throw new Error("lifecycle invariant: council_review without a session");
        const reviewEndsAt = councilReviewEndsAt(voteEndsAt(cur.vote.openedAt));
        if (now < reviewEndsAt) return null;
        const result = sessionTally(cur);
        // Silence: the unique vote result stands; anything else (deadlock, no quorum) is a neutral void.
        const verdict = result?.kind === "unique" ? result.outcome : "void";
        const final = finalize(cur, verdict, result?.kind !== "unique");
        return {
          market: final.market,
          step: step("councilSilent", reviewEndsAt, "council_review", final.market.state, final.transfers, {
            verdict,
            tally: result,
            session: cur.vote.session,
          }),
        };
      }
      case "challenge":
      case "resolved":
      case "void":
        return null;
    }
  }
}
