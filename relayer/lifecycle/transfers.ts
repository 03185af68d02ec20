/**
 * The movements of PM a lifecycle step makes, named for the PMJ5 operation the engine journals for each
 * (docs/lifecycle.md, "New PMJ5 operations"). `bond_escrow` and `vote_escrow` are the market's two escrow accounts
 * (the engine derives their addresses from the market id), `treasury` is the engine's treasury account. Every
 * amount is a positive bigint of PM units: a share that rounds to zero makes no transfer.
 */
import type { Address } from "viem";

export type Escrow = "bond_escrow" | "vote_escrow";

/** A bond posted: the creator's at creation, the challenger's with the challenge. */
export interface BondLock {
  op: "BOND_LOCK";
  from: Address;
  to: "bond_escrow";
  bondOf: Address;
  amount: bigint;
}
/** A bond (or what is left of it) handed back to whoever posted it. */
export interface BondReturn {
  op: "BOND_RETURN";
  from: "bond_escrow";
  to: Address;
  bondOf: Address;
  amount: bigint;
}
/** A share of `bondOf`'s bond awarded to another party, or to the voter pool in the vote escrow. */
export interface BondAward {
  op: "BOND_AWARD";
  from: "bond_escrow";
  to: Address | "vote_escrow";
  bondOf: Address;
  amount: bigint;
}
/** The treasury's share of a slashed bond, rounding remainder included. */
export interface BondSlash {
  op: "BOND_SLASH";
  from: "bond_escrow";
  to: "treasury";
  bondOf: Address;
  amount: bigint;
}
/** A ballot's stake (the engine adds the ballot's public commitment). */
export interface StakeLock {
  op: "STAKE_LOCK";
  from: Address;
  to: "vote_escrow";
  session: number;
  amount: bigint;
}
/** A stake handed back: to a correct voter, or to every voter of a session that does not bind. */
export interface StakeReturn {
  op: "STAKE_RETURN";
  from: "vote_escrow";
  to: Address;
  session: number;
  amount: bigint;
}
/** A correct voter's equal share of the incorrect stakes and the voter pool. */
export interface VoteReward {
  op: "VOTE_REWARD";
  from: "vote_escrow";
  to: Address;
  session: number;
  amount: bigint;
}
/** What no voter receives (rounding remainder, a pool without correct voters, a non-binding session's pool). */
export interface VoteEscrowSweep {
  op: "VOTE_ESCROW_SWEEP";
  from: "vote_escrow";
  to: "treasury";
  amount: bigint;
}

export type Transfer = BondLock | BondReturn | BondAward | BondSlash | StakeLock | StakeReturn | VoteReward | VoteEscrowSweep;

/** How much the transfers move into (positive) or out of (negative) each escrow. */
export function escrowChange(transfers: readonly Transfer[]): Record<Escrow, bigint> {
  const change: Record<Escrow, bigint> = { bond_escrow: 0n, vote_escrow: 0n };
  for (const t of transfers) {
    if (t.to === "bond_escrow" || t.to === "vote_escrow") change[t.to] += t.amount;
    if (t.from === "bond_escrow" || t.from === "vote_escrow") change[t.from] -= t.amount;
  }
  return change;
}

/** The sum of the transfers' amounts. */
export function totalOf(transfers: readonly Transfer[]): bigint {
  return transfers.reduce((sum, t) => sum + t.amount, 0n);
}

/** What the transfers pay to one recipient (an account, `treasury` or an escrow). */
export function paidTo(transfers: readonly Transfer[], to: string): bigint {
  return transfers.reduce((sum, t) => (t.to.toLowerCase() === to.toLowerCase() ? sum + t.amount : sum), 0n);
}

/** Drops the transfers of nothing (and the absent ones): a share that rounds to zero moves nothing. */
export function nonZero<T extends Transfer>(transfers: readonly (T | null)[]): T[] {
  return transfers.filter((t): t is T => t !== null && t.amount > 0n);
}
