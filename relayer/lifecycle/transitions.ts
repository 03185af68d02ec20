/**
 * The transitions of the market-state graph: who moves a market from one state to the next, through which named
 * operation or clock event, and on what condition. `GET /discover/market-states` publishes this table; the
 * operations (operations.ts) and the clock (due.ts) only ever make the moves it lists (transitions.test.ts).
 */
import type { MarketState } from "./states";

/** Who makes a transition. Voters cast ballots but move no state: the clock ends their session. */
export type Actor = "clock" | "creator" | "challenger" | "keeper" | "council" | "operator";

/** The commands that act on a market's life (operations.ts). `create` and `castBallot` move no state of the graph. */
export type LifecycleOperation = "create" | "propose" | "challenge" | "declareMia" | "castBallot" | "councilDecide" | "councilRestart" | "cancel";

/** The deadlines the clock acts on (due.ts), each named for what happened. */
export type ClockEvent = "closeTimeReached" | "creatorWindowMissed" | "keeperWindowElapsed" | "challengeWindowElapsed" | "voteEnded" | "councilSilent";

export interface MarketTransition {
  from: MarketState;
  to: MarketState;
  by: Actor;
  /** The operation or clock event that makes it. */
  via: LifecycleOperation | ClockEvent;
  condition: string;
}

export const MARKET_TRANSITIONS: readonly MarketTransition[] = [
  { from: "open", to: "closed", by: "clock", via: "closeTimeReached", condition: "closeTime passes" },
  {
    from: "open",
    to: "creator_proposal",
    by: "creator",
    via: "propose",
    condition: "the creator proposes an outcome or void from openTime on (trading stops); challengeBy = proposal time + challengeWindow.seconds",
  },
  {
    from: "closed",
    to: "creator_proposal",
    by: "creator",
    via: "propose",
    condition: "the creator proposes an outcome or void until creatorResolveBy; challengeBy = proposal time + challengeWindow.seconds",
  },
  {
    from: "open",
    to: "void",
    by: "operator",
    via: "cancel",
    condition: "the market is cancelled before any proposal (positions refunded, creation bond returned)",
  },
  {
    from: "closed",
    to: "void",
    by: "operator",
    via: "cancel",
    condition: "the market is cancelled before any proposal (positions refunded, creation bond returned)",
  },
  { from: "closed", to: "creator_mia", by: "clock", via: "creatorWindowMissed", condition: "creatorResolveBy passes with no proposal" },
  {
    from: "creator_mia",
    to: "human_voting",
    by: "keeper",
    via: "declareMia",
    condition:
      "any agent but the creator declares the miss before onMiss.keeperWindowSeconds ends: creation bond slashed (keeper share to the keeper), seed not slashed; the vote session opens",
  },
  {
    from: "creator_mia",
    to: "human_voting",
    by: "clock",
    via: "keeperWindowElapsed",
    condition: "onMiss.keeperWindowSeconds passes with no keeper: creation bond slashed (keeper share to the voter pool); the vote session opens",
  },
  {
    from: "creator_proposal",
    to: "challenge",
    by: "challenger",
    via: "challenge",
    condition: "any wallet posts the challenge bond (equal to the creation bond) before challengeBy",
  },
  { from: "challenge", to: "human_voting", by: "challenger", via: "challenge", condition: "at once: the challenge opens the single human-vote session" },
  {
    from: "creator_proposal",
    to: "resolved",
    by: "clock",
    via: "challengeWindowElapsed",
    condition: "challengeBy passes unchallenged and the proposal is an outcome (creation bond returned)",
  },
  {
    from: "creator_proposal",
    to: "void",
    by: "clock",
    via: "challengeWindowElapsed",
    condition: "challengeBy passes unchallenged and the proposal is void (creation bond returned)",
  },
  { from: "human_voting", to: "council_review", by: "clock", via: "voteEnded", condition: "humanVote.endsAt passes: ballots revealed, tally published" },
  { from: "council_review", to: "resolved", by: "council", via: "councilDecide", condition: "the council decides an outcome before councilReviewEndsAt" },
  { from: "council_review", to: "void", by: "council", via: "councilDecide", condition: "the council voids the market before councilReviewEndsAt" },
  {
    from: "council_review",
    to: "human_voting",
    by: "council",
    via: "councilRestart",
    condition: "the council restarts the vote for integrity before councilReviewEndsAt: the session's stakes are refunded, a new session opens",
  },
  {
    from: "council_review",
    to: "resolved",
    by: "clock",
    via: "councilSilent",
    condition: "councilReviewEndsAt passes with the council silent and the vote has a unique highest outcome at quorum",
  },
  {
    from: "council_review",
    to: "void",
    by: "clock",
    via: "councilSilent",
    condition: "councilReviewEndsAt passes with the council silent and no unique vote result (neutral void: both bonds returned)",
  },
];

/** True when the graph has a transition from `from` to `to`. */
export function isTransitionAllowed(from: MarketState, to: MarketState): boolean {
  return MARKET_TRANSITIONS.some((t) => t.from === from && t.to === to);
}

/** The transitions out of a state, in table order. */
export function transitionsFrom(state: MarketState): MarketTransition[] {
  return MARKET_TRANSITIONS.filter((t) => t.from === state);
}
