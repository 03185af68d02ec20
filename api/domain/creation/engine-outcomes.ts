/**
 * How each final market ended for its creator, read from the engine's lifecycle record (the tier rule of
 * ./reputation-rules.ts counts them): unchallenged (proposed, nobody challenged), overturned (challenged and the
 * final verdict differs from the proposal, or the creator missed its window and the vote decided), upheld
 * (challenged, the proposal stood).
 */
import type { Exchange } from "../../../relayer/exchange/exchange";
import type { OutcomeOf } from "./creator-standing";

export function engineOutcomeOf(exchange: Exchange): OutcomeOf {
  return (marketId) => {
    const l = exchange.engine.lifecycle(marketId);
    if (!l || (l.state !== "resolved" && l.state !== "void")) return "other";
    if (l.proposal === null) return "overturned";
    if (l.challenger === null) return "unchallenged";
    return l.verdict === l.proposal.outcome ? "upheld" : "overturned";
  };
}
