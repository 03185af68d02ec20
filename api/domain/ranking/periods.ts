/**
 * The leaderboard's periods (spec "Leaderboard"): calendar periods in UTC, not rolling windows, so that every reader
 * of one generation ranks over the same instants. A period is [start, end), or [start, now] while it runs; `start`
 * null means since the first entry.
 */

export const PERIODS = ["7d", "30d", "all", "season", "season7d", "season30d"] as const;
export type PeriodKind = (typeof PERIODS)[number];

export interface PeriodBounds {
  kind: PeriodKind;
  /** Epoch ms, inclusive; null: from the beginning. */
  start: number | null;
  /** Epoch ms, exclusive: the generation's instant, or the season's end once it has passed. */
  end: number;
}

/** The championship window, epoch ms, end exclusive (LEADERBOARD_SEASON_START / _END). */
export interface Season {
  start: number;
  end: number;
}

const DAY_MS = 86_400_000;

/** Monday 00:00 UTC of the week holding `at`. */
export function weekStart(at: number): number {
  const day = Math.floor(at / DAY_MS);
  // 1970-01-01 was a Thursday: day 0 is weekday 3 counted from Monday.
  const fromMonday = (day + 3) % 7;
  return (day - fromMonday) * DAY_MS;
}

/** The 1st of the month holding `at`, 00:00 UTC. */
export function monthStart(at: number): number {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/**
 * The bounds of `kind` at instant `now`. A season period is clamped inside the season: before it starts, it is empty
 * (start = end = the season's start); after it ends, it ends with it.
 */
export function boundsOf(kind: PeriodKind, now: number, season: Season): PeriodBounds {
  const inSeason = (start: number): PeriodBounds => {
    const end = Math.min(now, season.end);
    const from = Math.max(start, season.start);
    return end <= season.start ? { kind, start: season.start, end: season.start } : { kind, start: Math.min(from, end), end };
  };
  switch (kind) {
    case "7d":
      return { kind, start: weekStart(now), end: now };
    case "30d":
      return { kind, start: monthStart(now), end: now };
    case "all":
      return { kind, start: null, end: now };
    case "season":
      return inSeason(season.start);
    case "season7d":
      return inSeason(weekStart(Math.min(now, season.end - 1)));
    case "season30d":
      return inSeason(monthStart(Math.min(now, season.end - 1)));
  }
}
