/**
 * The guards of the lifecycle commands: each returns null when the command may act on the market at `at`, or the
 * refusal that says why not. They read the record as of `at` (the operations apply dueTransitions first), and check
 * the deadline too, so a record the clock has not caught up with still refuses after a window.
 */
import type { Address } from "viem";
import { challengeBy, councilReviewEndsAt, creatorResolveBy, keeperWindowEndsAt, voteEndsAt } from "./deadlines";
import type { LifecycleRefusal } from "./refusals";
import { isValidVerdict, sameAccount, type MarketLifecycle, type MarketState, type Verdict } from "./states";

type Refusal = LifecycleRefusal | null;

const wrongState = (m: MarketLifecycle, expected: readonly MarketState[]): LifecycleRefusal => ({ code: "WRONG_STATE", state: m.state, expected });

/** Trading (orders, LMSR trades) is allowed while the market is open and before closeTime. */
export function canTrade(m: MarketLifecycle, at: number): Refusal {
  return m.state === "open" && at < m.closeTime ? null : { code: "MARKET_CLOSED", state: m.state, closeTime: m.closeTime };
}

/** The creator proposes an outcome or void from openTime to creatorResolveBy (inclusive), once. */
export function canPropose(m: MarketLifecycle, account: Address, verdict: Verdict, at: number): Refusal {
  if (!sameAccount(account, m.creator)) return { code: "NOT_CREATOR" };
  if (m.proposal !== null) return wrongState(m, ["open", "closed"]);
  if (m.state !== "open" && m.state !== "closed") {
    // Past the window the market went creator_mia (and on to its vote), unless the operator cancelled it.
    const cancelled = m.state === "void" && m.vote === null;
    return cancelled ? wrongState(m, ["open", "closed"]) : { code: "CREATOR_WINDOW_ELAPSED", creatorResolveBy: creatorResolveBy(m.closeTime) };
  }
  if (at < m.openTime) return { code: "CREATOR_WINDOW_NOT_OPEN", openTime: m.openTime };
  if (at > creatorResolveBy(m.closeTime)) return { code: "CREATOR_WINDOW_ELAPSED", creatorResolveBy: creatorResolveBy(m.closeTime) };
  if (!isValidVerdict(verdict, m.outcomes)) return { code: "INVALID_OUTCOME", outcome: verdict, outcomes: m.outcomes };
  return null;
}

/** Any account that posts the bond (the creator too: the rules' "any wallet") challenges before challengeBy, once. */
export function canChallenge(m: MarketLifecycle, at: number): Refusal {
  if (m.proposal === null) return wrongState(m, ["creator_proposal"]);
  if (m.challenger !== null) return { code: "ALREADY_CHALLENGED" };
  const deadline = challengeBy(m.proposal.at);
  if (m.state !== "creator_proposal" || at >= deadline) return { code: "CHALLENGE_WINDOW_CLOSED", challengeBy: deadline };
  return null;
}

/** Any account but the creator declares a creator_mia market before the keeper window ends. */
export function canDeclareMia(m: MarketLifecycle, account: Address, at: number): Refusal {
  const deadline = keeperWindowEndsAt(m.closeTime);
  // Past the deadline the clock opened the vote of the missed market (or is about to): the keeper came too late.
  // Before it, a market that left creator_mia was declared by another keeper.
  const missed = m.state === "creator_mia" || (m.proposal === null && m.vote !== null);
  if (missed && at >= deadline) return { code: "KEEPER_WINDOW_CLOSED", keeperWindowEndsAt: deadline };
  if (m.state !== "creator_mia") return wrongState(m, ["creator_mia"]);
  // The keeper share rewards whoever else notices the miss; the creator would only shrink its own slash.
  if (sameAccount(account, m.creator)) return { code: "CREATOR_NOT_ELIGIBLE" };
  return null;
}

/** One staked ballot per voter and session, for an outcome of the market, before the session's endsAt. */
export function canCastBallot(m: MarketLifecycle, voter: Address, outcome: number, at: number): Refusal {
  if (m.vote === null) return wrongState(m, ["human_voting"]);
  const endsAt = voteEndsAt(m.vote.openedAt);
  if (m.state !== "human_voting" || at >= endsAt) return { code: "VOTE_CLOSED", session: m.vote.session, endsAt };
  if (!Number.isInteger(outcome) || outcome < 0 || outcome >= m.outcomes) return { code: "INVALID_OUTCOME", outcome, outcomes: m.outcomes };
  if (m.vote.ballots.some((b) => sameAccount(b.voter, voter))) return { code: "ALREADY_VOTED", session: m.vote.session };
  return null;
}

/**
 * The council acts (decide, void, restart) from the end of the human vote to councilReviewEndsAt. Whether the
 * signer is an appointed member is checked where the signature is (the API), not here.
 */
export function canCouncilAct(m: MarketLifecycle, at: number): Refusal {
  if (m.vote === null) return m.state === "challenge" ? { code: "COUNCIL_TOO_EARLY", voteEndsAt: null } : wrongState(m, ["council_review"]);
  const endsAt = voteEndsAt(m.vote.openedAt);
  if (m.state === "human_voting" || at < endsAt) return { code: "COUNCIL_TOO_EARLY", voteEndsAt: endsAt };
  const reviewEndsAt = councilReviewEndsAt(endsAt);
  // Final within the window: the council itself acted.
  if (m.state !== "council_review" && at < reviewEndsAt) return wrongState(m, ["council_review"]);
  if (m.state !== "council_review" || at >= reviewEndsAt) return { code: "COUNCIL_WINDOW_CLOSED", councilReviewEndsAt: reviewEndsAt };
  return null;
}

/** The operator cancels a market before any proposal (and before the creator window is missed). */
export function canCancel(m: MarketLifecycle): Refusal {
  return m.state === "open" || m.state === "closed" ? null : wrongState(m, ["open", "closed"]);
}
