/**
 * Shared fixtures of the lifecycle tests: named accounts, a market created at a fixed instant, and `must` to unwrap
 * a command that is expected to succeed.
 */
import type { Address } from "viem";
import { createLifecycle, type LifecycleResult } from "../operations";
import type { MarketLifecycle } from "../states";
import type { Advanced } from "../steps";

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** 2026-01-01T00:00:00Z, as relayer/clock's manualClock starts. */
export const T0 = 1_767_225_600_000;

/** A deterministic account for a small index (0x…01, 0x…02, …). */
export function account(n: number): Address {
  return `0x${n.toString(16).padStart(40, "0")}` as Address;
}

export const CREATOR = account(0xc0);
export const CHALLENGER = account(0xc1);
export const KEEPER = account(0xc2);
/** Voters v1..v9. */
export const VOTERS = Array.from({ length: 9 }, (_, i) => account(0x100 + i));

/** The unwrapped result of a command that must be accepted. */
export function must(r: LifecycleResult): Advanced {
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.refusal)}`);
  return r;
}

/** A binary market opened at T0 that closes a day later, with a 500 PM seed unless told. */
export function openMarket(opts: { seed?: bigint | null; outcomes?: number; closeTime?: number } = {}): MarketLifecycle {
  return must(
    createLifecycle({
      creator: CREATOR,
      outcomes: opts.outcomes ?? 2,
      openTime: T0,
      closeTime: opts.closeTime ?? T0 + DAY,
      seed: opts.seed === undefined ? 500_000_000n : opts.seed,
      at: T0,
    }),
  ).market;
}
