/**
 * Our rate-limit ceilings (the spec leaves the numbers "not shown"; docs/api.md lists them), read from the config.
 */
import type { Config } from "../../config";
import type { RateTier } from "../../domain/auth/principal";
import type { RateClass } from "../../registry/types";

export const WINDOW_MS = 60_000;

export type Ceilings = Record<RateClass, number>;

export function ceilingsOf(config: Config, tier: RateTier): Ceilings {
  return tier === "market-maker"
    ? { read: config.RATE_LIMIT_MM_READ_PER_MINUTE, write: config.RATE_LIMIT_MM_WRITE_PER_MINUTE, data: config.RATE_LIMIT_MM_DATA_PER_MINUTE }
    : { read: config.RATE_LIMIT_READ_PER_MINUTE, write: config.RATE_LIMIT_WRITE_PER_MINUTE, data: config.RATE_LIMIT_DATA_PER_MINUTE };
}

/** Per-IP ceilings: every request, and the separate registration and key-recovery limits. */
export function ipCeilings(config: Config): { all: number; register: number; recovery: number } {
  return { all: config.RATE_LIMIT_IP_PER_MINUTE, register: config.RATE_LIMIT_REGISTER_PER_MINUTE, recovery: config.RATE_LIMIT_RECOVERY_PER_MINUTE };
}
