/**
 * The voters' side of the money (bigint PM units): settling one session's stakes and the voter pool at finality, and
 * refunding a session the council restarts. Together with fund-flows.ts every escrow ends at exactly zero.
 */
import type { Ballot, Verdict } from "./states";
import type { TallyResult } from "./tally";
import { nonZero, type StakeReturn, type Transfer, type VoteEscrowSweep, type VoteReward } from "./transfers";

/**
 * A session binds when it reached quorum (a unique result or a deadlock) and the market resolved to an outcome; its
 * correct voters are those who voted for that outcome, whatever the council or the tally decided it by.
 */
export function isBinding(result: TallyResult, verdict: Verdict): verdict is number {
  return result.kind !== "no_quorum" && verdict !== "void";
}

export interface SessionSettlementInput {
  session: number;
  ballots: readonly Ballot[];
  /** The voter pool: PM in the vote escrow beyond the stakes (slashed bond shares). */
  pool: bigint;
  /** The outcome that makes a ballot correct when the session binds; null when it does not (see isBinding). */
  correctOutcome: number | null;
}

/**
 * Empties the vote escrow of one session. Binding: each correct voter gets the stake back plus an equal share of
 * the incorrect stakes and the pool (rounded down); the rounding remainder, or everything when no ballot was
 * correct, goes to the treasury. Not binding: every stake is returned and the pool goes to the treasury.
 */
export function settleSession({ session, ballots, pool, correctOutcome }: SessionSettlementInput): Transfer[] {
  if (correctOutcome === null) return nonZero<Transfer>([...ballots.map((b) => stakeReturn(session, b)), sweep(pool)]);
  const correct = ballots.filter((b) => b.outcome === correctOutcome);
  const forfeited = ballots.filter((b) => b.outcome !== correctOutcome).reduce((sum, b) => sum + b.stake, 0n);
  const rewards = forfeited + pool;
  if (correct.length === 0) return nonZero([sweep(rewards)]);
  const share = rewards / BigInt(correct.length);
  return nonZero<Transfer>([...correct.flatMap((b) => [stakeReturn(session, b), reward(session, b, share)]), sweep(rewards - share * BigInt(correct.length))]);
}

/** A session the council restarts: every stake goes back in full; the voter pool stays for the next session. */
export function refundSession(session: number, ballots: readonly Ballot[]): Transfer[] {
  return nonZero(ballots.map((b) => stakeReturn(session, b)));
}

function stakeReturn(session: number, b: Ballot): StakeReturn {
  return { op: "STAKE_RETURN", from: "vote_escrow", to: b.voter, session, amount: b.stake };
}

function reward(session: number, b: Ballot, amount: bigint): VoteReward {
  return { op: "VOTE_REWARD", from: "vote_escrow", to: b.voter, session, amount };
}

function sweep(amount: bigint): VoteEscrowSweep {
  return { op: "VOTE_ESCROW_SWEEP", from: "vote_escrow", to: "treasury", amount };
}
