/**
 * The states of a market's life and the record the engine keeps per market (docs/lifecycle.md, docs/resolution.md).
 * The record is plain data: every function of this module takes one and returns a new one, never mutating it.
 */
import type { Address } from "viem";
import type { MarketStateName as MarketState } from "../../decoder/journal/market-states";

/**
 * Every state, in the order of a market's life (`creator_mia` is the state the rules name for a missed window). One
 * list: the journal's MARKET_STATE codes are indexes into it, so the decoder owns it.
 */
export { MARKET_STATES } from "../../decoder/journal/market-states";
export type { MarketStateName as MarketState } from "../../decoder/journal/market-states";

/** The states with no way out. */
export const TERMINAL_STATES = ["resolved", "void"] as const satisfies readonly MarketState[];
export type TerminalState = (typeof TERMINAL_STATES)[number];

export function isTerminal(state: MarketState): state is TerminalState {
  return state === "resolved" || state === "void";
}

/** What a market resolves to: an outcome index (0..outcomes-1) or `void`. */
export type Verdict = number | "void";

/** True for `void` and for an integer outcome index of a market with `outcomes` outcomes. */
export function isValidVerdict(verdict: Verdict, outcomes: number): boolean {
  return verdict === "void" || (Number.isInteger(verdict) && verdict >= 0 && verdict < outcomes);
}

/** One staked ballot; `outcome` stays sealed until the session's deadline (the engine keeps the salt). */
export interface Ballot {
  voter: Address;
  outcome: number;
  /** PM units locked in the vote escrow with the ballot. */
  stake: bigint;
}

/** The human-vote session in progress or last held. Sessions are numbered from 1; a council restart opens the next. */
export interface VoteSession {
  session: number;
  openedAt: number;
  /** Ballots needed, fixed when the session opens (trading has stopped by then, so exposure no longer moves). */
  quorum: number;
  ballots: readonly Ballot[];
  /** True once the session's stakes were settled (returned, rewarded or swept) at finality. */
  settled: boolean;
}

/** The creator's proposal: an outcome or `void`, and when it was made (challengeBy counts from it). */
export interface Proposal {
  verdict: Verdict;
  at: number;
}

/**
 * A market's lifecycle state. Instants are epoch milliseconds; amounts are PM units. Escrow balances are part of
 * it so every step can say what moves: the bond escrow holds `bonds.creator + bonds.challenger`, the vote escrow
 * holds `voterPool` plus the stakes of `vote.ballots` (until the session is settled).
 */
export interface MarketLifecycle {
  state: MarketState;
  creator: Address;
  /** 2 or 3. */
  outcomes: number;
  openTime: number;
  closeTime: number;
  /** The creation bond B (the challenge bond equals it). */
  creationBond: bigint;
  /** What each party still has locked in the bond escrow. */
  bonds: { creator: bigint; challenger: bigint };
  proposal: Proposal | null;
  challenger: Address | null;
  vote: VoteSession | null;
  /** PM in the vote escrow beyond the current session's stakes: slashed bond shares waiting for correct voters. */
  voterPool: bigint;
  /** The final verdict once resolved or void. */
  verdict: Verdict | null;
}

/** What the market's two escrows hold according to the record; both are zero once it is final. */
export function escrowBalances(m: MarketLifecycle): { bond: bigint; vote: bigint } {
  const stakes = m.vote && !m.vote.settled ? m.vote.ballots.reduce((sum, b) => sum + b.stake, 0n) : 0n;
  return { bond: m.bonds.creator + m.bonds.challenger, vote: m.voterPool + stakes };
}

/** Same account (addresses compared without regard to case). */
export function sameAccount(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
