/**
 * The engine's contract for a market's life (docs/engine.md "Lifecycle", docs/lifecycle.md): the lifecycle commands,
 * their results, the lifecycle view and the typed market events every transition produces. Instants are epoch ms,
 * amounts bigint PM units (bonds, stakes) or collateral units (payouts).
 */
import type { Address, Hex } from "viem";
import type { ClockEvent, LifecycleOperation, MarketState, Verdict } from "../lifecycle";

/** Where a market trades: on the committed ledger (book or pool), or on chain (the ledger holds only its bonds and vote). */
export type Lane = "committed" | "onchain";

/**
 * One transition of a market's life, as the API announces it (market data lane, webhooks `market.state_changed`).
 * `reason` is the operation or clock event that made it; `at` is when it took effect (a clock event's deadline).
 */
export interface LifecycleEvent {
  marketId: string;
  from: MarketState | null;
  to: MarketState;
  at: number;
  reason: LifecycleOperation | ClockEvent;
  /** The final verdict on the step into resolved or void; the proposal on the step into creator_proposal. */
  outcome?: Verdict;
  /** The vote session the step opened, ended or settled. */
  session?: number;
}

/** A market's lifecycle as the engine holds it (MarketView.lifecycle, Engine.lifecycle). */
export interface LifecycleView {
  marketId: string;
  lane: Lane;
  state: MarketState;
  creator: Address;
  outcomes: number;
  openTime: number;
  closeTime: number;
  creatorResolveBy: number;
  challengeBy: number | null;
  keeperWindowEndsAt: number | null;
  councilReviewEndsAt: number | null;
  /** The deadline of the current stage; null once final. */
  nextActionDeadline: number | null;
  proposal: { outcome: Verdict; at: number } | null;
  challenger: Address | null;
  /** The current (or last) vote session; ballots stay sealed, only their count shows. */
  vote: { session: number; openedAt: number; endsAt: number; quorum: number; ballots: number } | null;
  verdict: Verdict | null;
  /** When the market became final (resolved or void). */
  finalAt: number | null;
  /** PM units: the creation bond (= the challenge bond) and what each party still has in the bond escrow. */
  bonds: { creation: bigint; creator: bigint; challenger: bigint };
  /** PM in the vote escrow beyond the stakes, waiting for correct voters. */
  voterPool: bigint;
}

/** What one holder was paid at a committed market's finality (one entry per account). */
export interface PayoutReceipt {
  marketId: string;
  account: Address;
  /** Shares burned per outcome index. */
  shares: bigint[];
  /** Collateral paid, net of `fee` (RESOLUTION_PAYOUT) or refunded (VOID_REFUND). */
  paid: bigint;
  fee: bigint;
  kind: "payout" | "void_refund";
  at: number;
}

/** The creator's LMSR pool residual: collectable once the market is final; money only ever goes to the creator. */
export interface CreatorFundsView {
  marketId: string;
  creator: Address;
  lane: Lane;
  final: boolean;
  /** Collateral left in the market's pool (0 on an order book, and on the on-chain lane where the contract holds it). */
  residual: bigint;
  collectable: bigint;
  collected: bigint;
}

export interface AdvanceLifecycleCommand {
  type: "advanceLifecycle";
}
export interface ProposeOutcomeCommand {
  type: "proposeOutcome";
  account: Address;
  marketId: bigint;
  outcome: Verdict;
}
export interface ChallengeCommand {
  type: "challenge";
  account: Address;
  marketId: bigint;
}
/** `account` is the keeper that declares the missing creator (it earns the keeper share). */
export interface DeclareMiaCommand {
  type: "declareMia";
  account: Address;
  marketId: bigint;
}
/** `salt` is drawn by the service and travels in the command, so the journal replays the same commitment. */
export interface CastBallotCommand {
  type: "castBallot";
  account: Address;
  marketId: bigint;
  outcome: number;
  salt: Hex;
}
/**
 * A council member's act. The API verifies `signature` (EIP-712) before submitting; the engine checks the member is
 * in the council it holds (setCouncil) and keeps the signature in the journal.
 */
export interface CouncilActCommand {
  type: "councilAct";
  member: Address;
  marketId: bigint;
  action: "decide" | "restart";
  /** decide only: an outcome index or "void". */
  outcome?: Verdict;
  signature: Hex;
}
/** Replaces the council (operator; journaled). */
export interface SetCouncilCommand {
  type: "setCouncil";
  members: Address[];
}
/** The creator takes its pool residual after finality (POOL_WITHDRAW pool -> creator). */
export interface CollectCreatorFundsCommand {
  type: "collectCreatorFunds";
  account: Address;
  marketId: bigint;
}
/** The operator voids a market before any proposal. */
export interface CancelMarketCommand {
  type: "cancelMarket";
  marketId: bigint;
}

export type LifecycleCommand =
  | AdvanceLifecycleCommand
  | ProposeOutcomeCommand
  | ChallengeCommand
  | DeclareMiaCommand
  | CastBallotCommand
  | CouncilActCommand
  | SetCouncilCommand
  | CollectCreatorFundsCommand
  | CancelMarketCommand;

/** What a market's finality did: committed lane payouts, or the chain action the resolver must take (on-chain lane). */
export interface FinalSettlement {
  verdict: Verdict;
  /** Committed lane: collateral paid to holders (net of fees) or refunded; 0 on the on-chain lane. */
  paid: bigint;
  fees: bigint;
  holders: number;
  /** On-chain lane: what the service's resolver must call on the LmsrMarket. */
  onchainAction?: { method: "resolve"; outcome: number } | { method: "voidMarket" };
}

/** The result of a lifecycle command on one market. */
export interface LifecycleCommandResult {
  lifecycle: LifecycleView;
  /** Every transition the command made (clock transitions that came due first), in order. */
  events: LifecycleEvent[];
  /** Set when the command made the market final. */
  settlement?: FinalSettlement;
}

export interface AdvanceLifecycleResult {
  events: LifecycleEvent[];
  /** Markets that became final, with their settlement. */
  settled: { marketId: string; settlement: FinalSettlement }[];
}

export interface SetCouncilResult {
  members: Address[];
}
export interface CollectCreatorFundsResult {
  marketId: string;
  account: Address;
  amount: bigint;
}

export interface LifecycleCommandResults {
  advanceLifecycle: AdvanceLifecycleResult;
  proposeOutcome: LifecycleCommandResult;
  challenge: LifecycleCommandResult;
  declareMia: LifecycleCommandResult;
  castBallot: LifecycleCommandResult;
  councilAct: LifecycleCommandResult;
  setCouncil: SetCouncilResult;
  collectCreatorFunds: CollectCreatorFundsResult;
  cancelMarket: LifecycleCommandResult;
}

/** The rejection codes of the lifecycle commands and their details (merged into RejectDetails). */
export interface LifecycleRejectDetails {
  /** A proposal after creatorResolveBy (spec code). */
  CREATOR_WINDOW_ELAPSED: { creatorResolveBy: number };
  /** A proposal before openTime. */
  CREATOR_WINDOW_NOT_OPEN: { openTime: number };
  /** A challenge at or after challengeBy, or of a proposal already challenged (spec code). */
  CHALLENGE_WINDOW_CLOSED: { challengeBy: number | null };
  /** Only the creator proposes and collects its funds. */
  NOT_CREATOR: Record<never, never>;
  /** The creator cannot be the keeper of its own missed window. */
  CREATOR_NOT_ELIGIBLE: Record<never, never>;
  /** The keeper window is over (the clock opened the vote), or another keeper declared first. */
  KEEPER_WINDOW_CLOSED: { keeperWindowEndsAt: number };
  /** A ballot with no session open: none yet, or at/after its endsAt. */
  VOTE_NOT_OPEN: { session: number | null; endsAt: number | null };
  /** One ballot per voter and session. */
  ALREADY_VOTED: { session: number };
  /** A council act before the vote ended or after the council's review. */
  COUNCIL_NOT_OPEN: { voteEndsAt: number | null; councilReviewEndsAt: number | null };
  /** The member is not in the council the engine holds. */
  NOT_COUNCIL_MEMBER: Record<never, never>;
  /** Creator funds before the market is final. */
  MARKET_NOT_FINAL: { state: MarketState };
  /** The command does not apply in the market's state (e.g. a second proposal, cancel after a proposal). */
  WRONG_MARKET_STATE: { state: MarketState; expected: readonly MarketState[] };
}
