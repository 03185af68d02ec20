/**
 * The human-vote tally: one staked ballot is one equal vote (reputation does not weigh), a session below quorum has
 * no result, a tie for the highest count at quorum is a deadlock, and a unique highest count at quorum is the
 * result the council's silence lets stand. Quorum is low or high by the market's locked collateral.
 */
import { HIGH_EXPOSURE_THRESHOLD_UNITS, QUORUM } from "./rules";

export type TallyResult =
  | { kind: "unique"; outcome: number; counts: number[] }
  | { kind: "deadlock"; counts: number[] }
  | { kind: "no_quorum"; counts: number[] };

/**
 * Counts the ballots of one session per outcome (`counts[i]` = ballots for outcome i) and names the result.
 * `quorum` is the number of ballots the session needs (quorumFor). The guards refuse out-of-range outcomes and
 * second ballots before they get here, so an out-of-range outcome is a bug and throws.
 */
export function tally(ballots: readonly { outcome: number }[], outcomes: number, quorum: number): TallyResult {
  const counts = new Array<number>(outcomes).fill(0);
  for (const b of ballots) {
    if (!Number.isInteger(b.outcome) || b.outcome < 0 || b.outcome >= outcomes) throw new RangeError(`ballot outcome ${b.outcome} of ${outcomes}`);
    counts[b.outcome] += 1;
  }
  if (ballots.length < quorum) return { kind: "no_quorum", counts };
  const top = Math.max(...counts);
  const leaders = counts.flatMap((c, i) => (c === top ? [i] : []));
  return leaders.length === 1 ? { kind: "unique", outcome: leaders[0], counts } : { kind: "deadlock", counts };
}

export type Exposure = "low" | "high";

/** High exposure when the market's locked collateral is more than the threshold (both in the collateral's units). */
export function exposureOf(lockedCollateral: bigint, thresholdUnits: bigint = HIGH_EXPOSURE_THRESHOLD_UNITS): Exposure {
  return lockedCollateral > thresholdUnits ? "high" : "low";
}

/** The quorum of a session of a market with this much collateral locked. */
export function quorumFor(lockedCollateral: bigint, thresholdUnits: bigint = HIGH_EXPOSURE_THRESHOLD_UNITS): number {
  return exposureOf(lockedCollateral, thresholdUnits) === "high" ? QUORUM.highExposure : QUORUM.lowExposure;
}
