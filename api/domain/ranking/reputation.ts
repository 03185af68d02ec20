/**
 * The public reputation of accounts (the spec's wallet, agent and batch reputation reads; docs/leaderboard.md
 * "Reputation"): the creator standing the creation rules use (tier and its source, history, gates), the juror tier
 * with the account's ballots, and its all-time trading on the default board. One record shape for all three reads.
 */
import type { Address } from "viem";
import type { SqlRunner } from "../../../relayer/db/client";
import { creatorStanding, type CreatorStanding, type OutcomeOf } from "../creation/creator-standing";
import type { Leaderboard } from "./leaderboard";

export interface ReputationDeps {
  db: SqlRunner;
  now: number;
  outcomeOf: OutcomeOf;
  leaderboard: Leaderboard;
}

/** One record per account (lower-case), in the order given; duplicates repeat. */
export async function reputationsOf(deps: ReputationDeps, accounts: readonly Address[]) {
  const standings = await deps.leaderboard.standings(accounts);
  const unique = [...new Set(accounts)];
  const standing = await Promise.all(unique.map((a) => creatorStanding(deps.db, a, deps.now, deps.outcomeOf)));
  const creators = new Map(unique.map((a, i) => [a, standing[i]]));
  return accounts.map((walletAddress, i) => {
    const c = creators.get(walletAddress) as CreatorStanding;
    const { trader, voting, measurement } = standings[i];
    return {
      walletAddress,
      creator: { tier: c.creatorTier, tierSource: c.granted ? ("operator" as const) : ("history" as const), history: c.history, gates: c.tierGates },
      juror: { tier: c.jurorTier, ...voting },
      trader,
      measurement,
    };
  });
}
