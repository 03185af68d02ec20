/**
 * The moves the lifecycle commands and the clock share: what a step is (one state change, or a ballot, with the
 * transfers it makes), opening a vote session, slashing a missing creator's bond and settling a market at finality.
 * Each move returns the new record and checks that its transfers match what the record says the escrows hold.
 */
import type { Address } from "viem";
import { challengerRightFlows, challengerWrongFlows, miaSlash, neutralVoidFlows, unchallengedBondFlows } from "./fund-flows";
import { escrowBalances, type MarketLifecycle, type MarketState, type Verdict } from "./states";
import { tally, type TallyResult } from "./tally";
import { escrowChange, type Transfer } from "./transfers";
import type { ClockEvent, LifecycleOperation } from "./transitions";
import { isBinding, settleSession } from "./vote-settlement";

/** One step of a market's life, in the order the engine journals them (a MARKET_STATE op when `from` ≠ `to`). */
export interface LifecycleStep {
  via: LifecycleOperation | ClockEvent;
  /** When it took effect: the command's time, or for a clock event the deadline that made it due. */
  at: number;
  /** null only for the creation. */
  from: MarketState | null;
  /** Equal to `from` for a step that moves no state (a ballot). */
  to: MarketState;
  /** The final verdict, on the step into resolved or void. */
  verdict: Verdict | null;
  /** The session's tally, published when the vote ends and applied when the council stays silent. */
  tally: TallyResult | null;
  /**
   * The vote session the step concerns: the one a ballot joins, the one a step opens (a challenge, a declared or
   * elapsed miss, a restart), the one that ended (voteEnded), or the one settled at finality. The engine reveals and
   * settles that session's ballots (it keeps their salts).
   */
  session: number | null;
  transfers: Transfer[];
}

/** A record and the steps that led to it from the one given. */
export interface Advanced {
  market: MarketLifecycle;
  steps: LifecycleStep[];
}

export function step(
  via: LifecycleStep["via"],
  at: number,
  from: MarketState | null,
  to: MarketState,
  transfers: Transfer[] = [],
  extra: Partial<Pick<LifecycleStep, "verdict" | "tally" | "session">> = {},
): LifecycleStep {
  return { via, at, from, to, verdict: extra.verdict ?? null, tally: extra.tally ?? null, session: extra.session ?? null, transfers };
}

/** Opens the next vote session at `at` (sessions count from 1). */
export function openSession(m: MarketLifecycle, at: number, quorum: number): MarketLifecycle {
  if (!Number.isInteger(quorum) || quorum < 1) throw new RangeError(`quorum ${quorum}`);
  return { ...m, state: "human_voting", vote: { session: (m.vote?.session ?? 0) + 1, openedAt: at, quorum, ballots: [], settled: false } };
}

/** The creator missed the window: its whole bond is slashed (keeper share, treasury share, the rest to the voter pool). */
export function slashMissingCreator(m: MarketLifecycle, keeper: Address | null): { market: MarketLifecycle; transfers: Transfer[] } {
  const transfers = miaSlash({ creator: m.creator, bond: m.bonds.creator, keeper });
  const change = escrowChange(transfers);
  assertChange(change.bond_escrow === -m.bonds.creator, "the MIA slash must empty the creator's bond");
  return { market: { ...m, bonds: { ...m.bonds, creator: 0n }, voterPool: m.voterPool + change.vote_escrow }, transfers };
}

/** The tally of the current session (against the quorum fixed when it opened). */
export function sessionTally(m: MarketLifecycle): TallyResult | null {
  return m.vote ? tally(m.vote.ballots, m.outcomes, m.vote.quorum) : null;
}

/**
 * Makes the market final with `verdict`: the bonds go by who was right (`neutral`: the council was silent without
 * a unique vote result, so both bonds return), then the session's stakes and the voter pool are settled.
 * Afterwards both escrows are empty.
 */
export function finalize(m: MarketLifecycle, verdict: Verdict, neutral: boolean): { market: MarketLifecycle; transfers: Transfer[] } {
  const bondTransfers = bondFlowsAtFinality(m, verdict, neutral);
  const pool = m.voterPool + escrowChange(bondTransfers).vote_escrow;
  const open = m.vote !== null && !m.vote.settled ? m.vote : null;
  const result = open ? tally(open.ballots, m.outcomes, open.quorum) : null;
  const voteTransfers = settleSession({
    session: open?.session ?? 0,
    ballots: open?.ballots ?? [],
    pool,
    correctOutcome: result !== null && isBinding(result, verdict) ? verdict : null,
  });
  const transfers = [...bondTransfers, ...voteTransfers];
  const before = escrowBalances(m);
  const change = escrowChange(transfers);
  assertChange(change.bond_escrow === -before.bond && change.vote_escrow === -before.vote, "finality must empty both escrows");
  const market: MarketLifecycle = {
    ...m,
    state: verdict === "void" ? "void" : "resolved",
    verdict,
    bonds: { creator: 0n, challenger: 0n },
    voterPool: 0n,
    vote: m.vote ? { ...m.vote, settled: true } : null,
  };
  return { market, transfers };
}

function bondFlowsAtFinality(m: MarketLifecycle, verdict: Verdict, neutral: boolean): Transfer[] {
  if (m.challenger === null || m.proposal === null) return unchallengedBondFlows(m.creator, m.bonds.creator);
  const parties = { creator: m.creator, challenger: m.challenger, bond: m.creationBond };
  if (neutral) return neutralVoidFlows(parties);
  return verdict === m.proposal.verdict ? challengerWrongFlows(parties) : challengerRightFlows(parties);
}

/** A broken money invariant is a bug in this module, never a business refusal. */
function assertChange(ok: boolean, what: string): void {
  if (!ok) throw new Error(`lifecycle invariant: ${what}`);
}
