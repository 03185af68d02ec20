/**
 * Our rate-limit ceilings (the spec leaves the numbers "not shown"; docs/api.md lists them), read from the config.
 */
import type { Config } from "../../config";

export const WINDOW_MS = 60_000;

/** The window an operation counts against (each operation's `rateClass` in the registry). */
export type RateClass = "read" | "write" | "data";

/** Allocation tier of the rate-limit ceilings: a separate axis from the authorization tier. */
export type RateTier = "ordinary" | "market-maker";

/** An operator's incident throttle: every ceiling at `percent`% of the tier's, until `until` (epoch ms) or lifted. */
export interface RateThrottle {
  percent: number;
  reason: string;
  until: number | null;
}

export type Ceilings = Record<RateClass, number>;

export function ceilingsOf(config: Config, tier: RateTier): Ceilings {
  return tier === "market-maker"
    ? { read: config.RATE_LIMIT_MM_READ_PER_MINUTE, write: config.RATE_LIMIT_MM_WRITE_PER_MINUTE, data: config.RATE_LIMIT_MM_DATA_PER_MINUTE }
    : { read: config.RATE_LIMIT_READ_PER_MINUTE, write: config.RATE_LIMIT_WRITE_PER_MINUTE, data: config.RATE_LIMIT_DATA_PER_MINUTE };
}

/** The throttle in force at `now`, or null (none set, or its time is up). */
export function activeThrottle(p: { rateThrottle?: RateThrottle | null }, now: number): RateThrottle | null {
  const t = p.rateThrottle;
  return t && (t.until === null || t.until > now) ? t : null;
}

/**
 * A key's ceilings: its allocation tier's, lowered by an operator's incident throttle while one is in force (at least
 * 1 per window, so a throttled key is slowed, not locked out; revoking is the tool for that).
 */
export function keyCeilings(
  config: Config,
  p: { rateTier: RateTier; rateThrottle?: RateThrottle | null },
  now: number,
): Ceilings & { throttle: RateThrottle | null } {
  const base = ceilingsOf(config, p.rateTier);
  const throttle = activeThrottle(p, now);
  if (!throttle) return { ...base, throttle };
  const lower = (n: number) => Math.max(1, Math.floor((n * throttle.percent) / 100));
  return { read: lower(base.read), write: lower(base.write), data: lower(base.data), throttle };
}

/** Per-IP ceilings: every request, and the separate registration and key-recovery limits. */
export function ipCeilings(config: Config): { all: number; register: number; recovery: number } {
  return { all: config.RATE_LIMIT_IP_PER_MINUTE, register: config.RATE_LIMIT_REGISTER_PER_MINUTE, recovery: config.RATE_LIMIT_RECOVERY_PER_MINUTE };
}
