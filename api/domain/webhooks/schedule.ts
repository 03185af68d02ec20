/**
 * The Standard Webhooks retry schedule: after the first attempt fails, retry after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h
 * and 10 h (8 attempts in all), each delay with +-10 % jitter so many endpoints failing together do not retry in step.
 * A Retry-After header on a failed answer pushes the next attempt later, never earlier (capped at one day).
 */
export const STANDARD_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
export const JITTER = 0.1;
export const MAX_RETRY_AFTER_MS = 86_400_000;

/** Delay before the next attempt after `failedAttempts` failures (1-based), or null when the schedule is spent. */
export function retryDelay(
  failedAttempts: number,
  schedule: readonly number[] = STANDARD_RETRY_SCHEDULE_MS,
  random: () => number = Math.random,
): number | null {
  const base = schedule[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}
