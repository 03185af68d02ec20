/**
 * What a trade lane answers (docs/trading-onchain.md, docs/venue.md): the committed lane (committed-lane.ts) and the
 * on-chain lane (onchain-lane.ts) both implement it, and `TradeLanes` (trade-lanes.ts) picks the lane of a market.
 */
import type { CommitUnit } from "../../../relayer/db/group-commit";
import type { KeyPrincipal } from "../auth/principal";
import type { PrepareRequest, TradeRequest } from "./trade-request";
import type { PreparedTrade, TradeQuote } from "./trade-answers";

/** The lane of one market. */
export interface TradeLane {
  readonly lane: "committed" | "onchain";
  /** The price of the trade now, with the bound a prepare would hold it to. Changes nothing. */
  quote(req: TradeRequest): Promise<TradeQuote>;
  /**
   * committed: executes the trade at once within the bound, in the call's commit unit (`unit`, see CallContext.unit);
   * onchain: the intent to sign (nothing moves yet).
   */
  prepare(req: PrepareRequest, principal: KeyPrincipal, unit: CommitUnit | null): Promise<PreparedTrade>;
}
