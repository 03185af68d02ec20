/**
 * The canonical market-state graph (`GET /discover/market-states`), built from the state machine's own table
 * (relayer/lifecycle/transitions.ts), so the service and the published document can never disagree. The spec names
 * the states and the stage rules; the transitions are ours (the spec says "not shown"). Each published transition
 * is `{from, to, by, condition}`; two rows may share `from` and `to` when different actors make the move.
 */
import { MARKET_STATES, TERMINAL_STATES, type MarketState } from "../../../relayer/lifecycle/states";
import { isTransitionAllowed, MARKET_TRANSITIONS as LIFECYCLE_TRANSITIONS, type Actor } from "../../../relayer/lifecycle/transitions";

export { MARKET_STATES, isTransitionAllowed, type MarketState };

/** One published transition. */
export interface MarketTransition {
  from: MarketState;
  to: MarketState;
  by: Actor;
  condition: string;
}

export const MARKET_TRANSITIONS: readonly MarketTransition[] = LIFECYCLE_TRANSITIONS.map(({ from, to, by, condition }) => ({ from, to, by, condition }));

export function buildMarketStates(market?: { address: string; chainId: number; state: MarketState }) {
  return {
    states: MARKET_STATES,
    terminal: [...TERMINAL_STATES] as MarketState[],
    transitions: MARKET_TRANSITIONS,
    ...(market
      ? { market: { ...market, next: MARKET_TRANSITIONS.filter((t) => t.from === market.state).map((t) => ({ to: t.to, by: t.by, condition: t.condition })) } }
      : {}),
  };
}
