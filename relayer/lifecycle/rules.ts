/**
 * The protocol's values: resolution windows, bonds, slash and fund-flow shares, quorum, vote stake and the
 * high-exposure threshold. This file is their one home: the state machine, the tally and the fund-flow arithmetic
 * read them here, and `GET /discover/rules` (api/domain/protocol/rules.ts) publishes them in the spec's shapes.
 *
 * Arithmetic forms only: shares are integer basis points (never 0.5 or 0.25 floats), amounts are bigint PM units
 * (PM has 6 decimals: 10 PM = 10_000_000 units), windows are integer seconds. Bump RULES_VERSION whenever a
 * published value changes.
 */

/** The spec's constant rules version (`rulesVersion` of `GET /discover/rules`). */
export const RULES_VERSION = "2026-08-28-staked-voting-v1";

/** Decimals of PM, the protocol token: bonds, stakes, slashes and rewards are PM on the committed ledger. */
export const PM_DECIMALS = 6;
/** Units in one PM. */
export const PM_UNIT = 10n ** BigInt(PM_DECIMALS);
/** The denominator of every share in basis points. */
export const BPS_DENOMINATOR = 10_000;

/** Resolution windows in seconds. */
export const WINDOWS = {
  /** creatorResolveBy = closeTime + grace: the creator may propose until then (inclusive). */
  creatorGraceSecondsAfterClose: 48 * 3600,
  /** challengeBy = proposal time + this. */
  challengeSeconds: 24 * 3600,
  /** A vote session's endsAt = its opening + this; the deadline never moves. */
  humanVoteWindowSeconds: 48 * 3600,
  /** councilReviewEndsAt = the vote's endsAt + this. */
  councilReviewSeconds: 24 * 3600,
  /**
   * How long a market stays in creator_mia for a keeper to declare it (and earn the keeper share) before the clock
   * opens the vote itself. Short: it only delays the vote, and any agent can act at once.
   */
  keeperWindowSeconds: 3600,
} as const;

/** The creation bond: clamp(seed × ratio, min, max); a market without a seed (ORDERBOOK) pays the minimum. */
export const CREATOR_BOND = {
  ratioOfSeedBps: 1_000,
  minUnits: 10n * PM_UNIT,
  maxUnits: 1_000n * PM_UNIT,
} as const;

/** Split of the creation bond slashed when the creator misses the window (creator_mia). The voter pool gets the rest. */
export const MIA_SLASH_SPLIT = {
  keeperBps: 1_000,
  keeperCapUnits: 100n * PM_UNIT,
  treasuryBps: 5_000,
} as const;

/**
 * Split of the losing side's bond after a challenge (the challenger right: the creator's bond; wrong: the
 * challenger's). `winnerBps` goes to the other party, `voterPoolBps` to the session's correct voters, the treasury
 * takes its share and the rounding remainder. The winner's own bond is returned in full.
 */
export const CHALLENGE_SPLIT = {
  winnerBps: 5_000,
  treasuryBps: 2_500,
  voterPoolBps: 2_500,
} as const;

/** Ballots a session needs: more when the market's locked collateral exceeds the high-exposure threshold. */
export const QUORUM = { lowExposure: 3, highExposure: 7 } as const;

/**
 * Locked collateral (smallest units of the market's collateral) above which a market is high exposure: 10,000
 * tokens of a 6-decimal collateral. One value for every collateral the service lists.
 */
export const HIGH_EXPOSURE_THRESHOLD_UNITS = 10_000_000_000n;

/** PM staked with each ballot (`economy.voting.unverifiedStakePm`): 10 PM. */
export const VOTE_STAKE_UNITS = 10n * PM_UNIT;

/** floor(amount × bps / 10000): every share of the protocol is this, the remainder goes where the rule says. */
export function bpsOf(amount: bigint, bps: number): bigint {
  return (amount * BigInt(bps)) / BigInt(BPS_DENOMINATOR);
}
