/**
 * The creator tiers and the gates each opens (GET /me `reputation`, GET /discover/reputation), and the documented rule
 * that picks a creator's tier from its history (docs/market-creation.md "Reputation"). Pure: the history and an
 * operator's override arrive as arguments. Seeds are bounded by `maxSeedMultiplier × BASE_SEED_UNITS`.
 */

/** The seed one multiplier allows: 1,000 PM (or 1,000 units of a 6-decimal on-chain collateral, counted 1:1). */
export const BASE_SEED_UNITS = 1_000_000_000n;

export const CREATOR_TIERS = ["suspended", "new", "established", "trusted", "partner"] as const;
export type CreatorTier = (typeof CREATOR_TIERS)[number];

export interface TierGates {
  canCreate: boolean;
  canVote: boolean;
  canChallenge: boolean;
  concurrentMarketLimit: number;
  /** null: no bound on the seed. */
  maxSeedMultiplier: number | null;
}

/** The gates of each tier. `partner` is only ever granted by an operator (the demo creator holds it). */
export const TIER_GATES: Readonly<Record<CreatorTier, TierGates>> = {
  suspended: { canCreate: false, canVote: true, canChallenge: true, concurrentMarketLimit: 0, maxSeedMultiplier: 0 },
  new: { canCreate: true, canVote: true, canChallenge: true, concurrentMarketLimit: 5, maxSeedMultiplier: 2 },
  established: { canCreate: true, canVote: true, canChallenge: true, concurrentMarketLimit: 15, maxSeedMultiplier: 5 },
  trusted: { canCreate: true, canVote: true, canChallenge: true, concurrentMarketLimit: 40, maxSeedMultiplier: 10 },
  partner: { canCreate: true, canVote: true, canChallenge: true, concurrentMarketLimit: 1_000, maxSeedMultiplier: null },
};

/** Voting needs only a stake (spec: "any staked wallet votes"), so every agent has the one juror tier. */
export const JUROR_TIER = "staked";

/** What the rule reads of a creator's past markets. */
export interface CreatorHistory {
  /** Markets the creator deployed (every lane, every state). */
  created: number;
  /** Final markets the creator proposed and nobody challenged. */
  resolvedUnchallenged: number;
  /** Final markets whose creator proposal was overturned after a challenge (or a missed window: creator_mia). */
  overturned: number;
}

/**
 * The tier the history earns:
 *   - suspended: at least 3 overturned and more overturned than resolved unchallenged;
 *   - trusted: at least 10 resolved unchallenged and overturned at most 10 % of them;
 *   - established: at least 3 resolved unchallenged and overturned at most 20 % of them;
 *   - new: everyone else (a creator with no history starts here).
 */
export function tierFromHistory(h: CreatorHistory): Exclude<CreatorTier, "partner"> {
  if (h.overturned >= 3 && h.overturned > h.resolvedUnchallenged) return "suspended";
  if (h.resolvedUnchallenged >= 10 && h.overturned * 10 <= h.resolvedUnchallenged) return "trusted";
  if (h.resolvedUnchallenged >= 3 && h.overturned * 5 <= h.resolvedUnchallenged) return "established";
  return "new";
}

/** The largest seed a tier allows, or null for no bound. */
export function maxSeedOf(gates: TierGates): bigint | null {
  if (gates.maxSeedMultiplier === null) return null;
  // Multipliers are whole or tenths: scale by 10 to stay in bigint.
  return (BASE_SEED_UNITS * BigInt(Math.round(gates.maxSeedMultiplier * 10))) / 10n;
}

export function isCreatorTier(s: string): s is CreatorTier {
  return (CREATOR_TIERS as readonly string[]).includes(s);
}
