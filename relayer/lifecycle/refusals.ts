/**
 * Why a lifecycle command is refused: one closed union of codes, each carrying the values that explain it. A guard
 * returns one of these (never throws); the engine passes it on and the API maps the code to a problem
 * (`CREATOR_WINDOW_ELAPSED`, `CHALLENGE_WINDOW_CLOSED` and `MARKET_CLOSED` are spec codes; the others are ours).
 */
import type { MarketState, Verdict } from "./states";

export type LifecycleRefusal =
  /** The command does not apply in the market's current state. */
  | { code: "WRONG_STATE"; state: MarketState; expected: readonly MarketState[] }
  /** Trading after closeTime, or after the creator's proposal stopped it. */
  | { code: "MARKET_CLOSED"; state: MarketState; closeTime: number }
  /** The market's terms cannot start a life (outcome count, schedule). */
  | { code: "INVALID_TERMS"; reason: string }
  /** A proposal before openTime. */
  | { code: "CREATOR_WINDOW_NOT_OPEN"; openTime: number }
  /** A proposal after creatorResolveBy (the market is, or is about to be, creator_mia). */
  | { code: "CREATOR_WINDOW_ELAPSED"; creatorResolveBy: number }
  /** Only the market's creator proposes. */
  | { code: "NOT_CREATOR" }
  /** The creator cannot be the keeper of its own missed window (and collect a share of its own slashed bond). */
  | { code: "CREATOR_NOT_ELIGIBLE" }
  /** An outcome index outside the market's outcomes (or void where only an outcome is allowed). */
  | { code: "INVALID_OUTCOME"; outcome: Verdict; outcomes: number }
  /** A challenge at or after challengeBy. */
  | { code: "CHALLENGE_WINDOW_CLOSED"; challengeBy: number }
  /** The proposal was challenged already (one challenge per market). */
  | { code: "ALREADY_CHALLENGED" }
  /** The clock opened the vote already: the keeper window is over. */
  | { code: "KEEPER_WINDOW_CLOSED"; keeperWindowEndsAt: number }
  /** A ballot at or after the session's endsAt. */
  | { code: "VOTE_CLOSED"; session: number; endsAt: number }
  /** One ballot per voter and session. */
  | { code: "ALREADY_VOTED"; session: number }
  /** The council acts only after the human vote ended. */
  | { code: "COUNCIL_TOO_EARLY"; voteEndsAt: number | null }
  /** The council's review ended (its silence made the market final). */
  | { code: "COUNCIL_WINDOW_CLOSED"; councilReviewEndsAt: number };
