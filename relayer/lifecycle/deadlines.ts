/**
 * The deadlines of a market's stages (the spec's deadline fields), computed from the record and the rules' windows.
 * Instants are epoch milliseconds. Windows are half-open `[start, deadline)` except the creator's, which the spec
 * states inclusively ("from openTime to creatorResolveBy"): the creator may still propose at creatorResolveBy.
 */
import { WINDOWS } from "./rules";
import type { MarketLifecycle } from "./states";

const SECOND_MS = 1000;

/** The last instant the creator may propose: closeTime + creator grace. */
export function creatorResolveBy(closeTime: number): number {
  return closeTime + WINDOWS.creatorGraceSecondsAfterClose * SECOND_MS;
}

/** The first instant the creator is missing in action (the market enters creator_mia). */
export function creatorMissedAt(closeTime: number): number {
  return creatorResolveBy(closeTime) + 1;
}

/**
 * When the keeper window of a creator_mia market ends and the clock opens the vote itself: keeperWindowSeconds after
 * creatorResolveBy (the window runs from the miss, one millisecond later, to this instant, exclusive).
 */
export function keeperWindowEndsAt(closeTime: number): number {
  return creatorResolveBy(closeTime) + WINDOWS.keeperWindowSeconds * SECOND_MS;
}

/** The end of the challenge window of a proposal made at `proposedAt`. */
export function challengeBy(proposedAt: number): number {
  return proposedAt + WINDOWS.challengeSeconds * SECOND_MS;
}

/** The immutable end of a vote session opened at `openedAt`. */
export function voteEndsAt(openedAt: number): number {
  return openedAt + WINDOWS.humanVoteWindowSeconds * SECOND_MS;
}

/** The end of the council's review that follows a vote ending at `endsAt`. */
export function councilReviewEndsAt(endsAt: number): number {
  return endsAt + WINDOWS.councilReviewSeconds * SECOND_MS;
}

/** The spec's deadline fields of one market, plus the keeper window of a creator_mia market; null until set. */
export interface MarketDeadlines {
  closeTime: number;
  creatorResolveBy: number;
  challengeBy: number | null;
  /** Set when the creator missed the window (the market went through creator_mia). */
  keeperWindowEndsAt: number | null;
  humanVoteEndsAt: number | null;
  councilReviewEndsAt: number | null;
  /** The deadline that bounds the current stage; null once terminal. */
  nextActionDeadline: number | null;
}

export type DeadlineInput = Pick<MarketLifecycle, "state" | "closeTime" | "proposal" | "vote">;

/** Every deadline of a market as its record stands (the stage's deadline in `nextActionDeadline`). */
export function deadlinesOf(m: DeadlineInput): MarketDeadlines {
  // A market went missing when it sits in creator_mia, or holds a vote with no proposal (the vote the miss opened).
  const missed = m.state === "creator_mia" || (m.proposal === null && m.vote !== null);
  const humanVoteEndsAt = m.vote ? voteEndsAt(m.vote.openedAt) : null;
  const d = {
    closeTime: m.closeTime,
    creatorResolveBy: creatorResolveBy(m.closeTime),
    challengeBy: m.proposal ? challengeBy(m.proposal.at) : null,
    keeperWindowEndsAt: missed ? keeperWindowEndsAt(m.closeTime) : null,
    humanVoteEndsAt,
    councilReviewEndsAt: humanVoteEndsAt === null ? null : councilReviewEndsAt(humanVoteEndsAt),
  };
  return { ...d, nextActionDeadline: stageDeadline(m.state, d) };
}

/** The deadline that bounds the market's current stage, or null once terminal. */
export function nextActionDeadline(m: DeadlineInput): number | null {
  return deadlinesOf(m).nextActionDeadline;
}

function stageDeadline(state: MarketLifecycle["state"], d: Omit<MarketDeadlines, "nextActionDeadline">): number | null {
  switch (state) {
    case "open":
      return d.closeTime;
    case "closed":
      return d.creatorResolveBy;
    case "creator_proposal":
      return d.challengeBy;
    case "creator_mia":
      return d.keeperWindowEndsAt;
    case "challenge":
    case "human_voting":
      return d.humanVoteEndsAt;
    case "council_review":
      return d.councilReviewEndsAt;
    case "resolved":
    case "void":
      return null;
  }
}
