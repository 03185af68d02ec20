/**
 * The canonical market-state graph (`GET /discover/market-states`). The spec names the states and the stage rules;
 * the transitions are ours (the spec says "not shown"). The graph is data so the state machine and the published
 * document can never disagree: the relayer checks transitions against MARKET_TRANSITIONS.
 */
export const MARKET_STATES = ["open", "closed", "creator_proposal", "challenge", "human_voting", "council_review", "resolved", "void"] as const;
export type MarketState = (typeof MARKET_STATES)[number];

export interface MarketTransition {
  from: MarketState;
  to: MarketState;
  by: "time" | "creator" | "challenger" | "voters" | "council" | "operator";
  condition: string;
}

export const MARKET_TRANSITIONS: readonly MarketTransition[] = [
  { from: "open", to: "closed", by: "time", condition: "closeTime passes" },
  { from: "open", to: "void", by: "operator", condition: "market cancelled before close (all positions refunded)" },
  { from: "closed", to: "creator_proposal", by: "creator", condition: "creator proposes an outcome before creatorResolveBy" },
  { from: "closed", to: "human_voting", by: "time", condition: "creatorResolveBy passes with no proposal (creator_mia: bond slashed, seed not slashed)" },
  { from: "creator_proposal", to: "challenge", by: "challenger", condition: "an eligible challenger posts the bond before challengeBy" },
  { from: "creator_proposal", to: "resolved", by: "time", condition: "challengeBy passes unchallenged (bond returned)" },
  { from: "challenge", to: "human_voting", by: "time", condition: "the challenge opens the single human-vote session" },
  { from: "human_voting", to: "council_review", by: "time", condition: "humanVote.endsAt passes" },
  { from: "council_review", to: "resolved", by: "council", condition: "council decides an outcome, or stays silent and the unique vote result stands" },
  { from: "council_review", to: "void", by: "council", condition: "council voids, or stays silent with no unique vote result (neutral void)" },
  { from: "council_review", to: "human_voting", by: "council", condition: "council restarts the vote for integrity" },
];

export function isTransitionAllowed(from: MarketState, to: MarketState): boolean {
  return MARKET_TRANSITIONS.some((t) => t.from === from && t.to === to);
}

export function buildMarketStates(market?: { address: string; chainId: number; state: MarketState }) {
  return {
    states: MARKET_STATES,
    terminal: ["resolved", "void"] as MarketState[],
    transitions: MARKET_TRANSITIONS,
    ...(market
      ? { market: { ...market, next: MARKET_TRANSITIONS.filter((t) => t.from === market.state).map((t) => ({ to: t.to, by: t.by, condition: t.condition })) } }
      : {}),
  };
}
