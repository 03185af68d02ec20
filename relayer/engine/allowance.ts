/**
 * The fill allowance (docs/engine.md "Fill allowance"): executed wallet-sides counted per account in fixed periods
 * anchored at the account's signup, free ones first, then purchased credits. The period rule, the consumption rule and
 * the one exemption (closing a whole position) live here and nowhere else; the API reads the period from here too.
 */
import type { Address } from "viem";
import type { Acct } from "./model";
import { reject } from "./rejection";
import type { EngineState } from "./state";
import type { AllowanceView } from "./types";

const DAY_MS = 86_400_000;

/** The venue's allowance period: seven days (the service's engine config uses it; tests may use shorter ones). */
export const FILL_ALLOWANCE_PERIOD_MS = 7 * DAY_MS;

/** Index of the period containing `at` for an account that signed up at `signupAt` (0 before the signup). */
export function periodIndex(signupAt: number, at: number, periodMs: number): number {
  return Math.max(0, Math.floor((at - signupAt) / periodMs));
}

/** The period containing `at`: its start and end instants (ms) and its length in whole days. */
export function allowancePeriod(signupAt: number, at: number, periodMs: number): { startsAt: number; endsAt: number; durationDays: number } {
  const startsAt = signupAt + periodIndex(signupAt, at, periodMs) * periodMs;
  return { startsAt, endsAt: startsAt + periodMs, durationDays: Math.max(1, Math.round(periodMs / DAY_MS)) };
}

/** Wallet-sides the account may still execute at `at` (free left in the period plus purchased credits). */
function remaining(s: EngineState, a: Acct, at: number): number {
  const { freePerPeriod, periodMs } = s.config.allowance;
  const used = a.periodIdx === periodIndex(a.signupAt, at, periodMs) ? a.freeUsed : 0;
  return Math.max(0, freePerPeriod - used) + a.paid;
}

/**
 * The one exemption of an exhausted allowance: a verified full-position close, i.e. a sell of exactly the account's
 * whole (non-zero) balance of that outcome asset.
 */
export function fullCloseExempt(a: Acct, asset: bigint, sell: boolean, size: bigint | undefined): boolean {
  if (!sell) return false;
  const held = a.bals.get(asset)?.v ?? 0n;
  return held > 0n && size === held;
}

/**
 * Refuses FILL_ALLOWANCE_EXHAUSTED (with the allowance) a new placement or LMSR trade of an account with nothing left,
 * unless it closes a whole position in `asset`. Does nothing while the allowance is disabled.
 */
export function requireAllowance(s: EngineState, a: Acct, at: number, asset: bigint, sell: boolean, size: bigint | undefined, message: string): void {
  if (!s.config.allowance.enabled || remaining(s, a, at) > 0 || fullCloseExempt(a, asset, sell, size)) return;
  reject("FILL_ALLOWANCE_EXHAUSTED", message, { allowance: allowanceOf(s, a, at) });
}

/** One executed wallet-side: free ones first, then purchased credits; past both, free use keeps counting. */
export function consume(s: EngineState, a: Acct, at: number): void {
  const { enabled, freePerPeriod, periodMs } = s.config.allowance;
  if (!enabled || a.addr === s.config.treasury) return;
  s.u.saveAcct(a);
  const idx = periodIndex(a.signupAt, at, periodMs);
  if (a.periodIdx !== idx) {
    a.periodIdx = idx;
    a.freeUsed = 0;
  }
  if (a.freeUsed < freePerPeriod || a.paid === 0) a.freeUsed++;
  else a.paid--;
}

/** Adds purchased fill credits (they never expire). */
export function addCredits(s: EngineState, a: Acct, fills: number): void {
  s.u.saveAcct(a);
  a.paid += fills;
}

export function allowanceOf(s: EngineState, a: Acct, at: number): AllowanceView {
  const { enabled, freePerPeriod, periodMs } = s.config.allowance;
  const freeUsed = a.periodIdx === periodIndex(a.signupAt, at, periodMs) ? a.freeUsed : 0;
  const freeRemaining = Math.max(0, freePerPeriod - freeUsed);
  const period = allowancePeriod(a.signupAt, at, periodMs);
  return {
    enabled,
    freePerPeriod,
    freeUsed,
    freeRemaining,
    paidRemaining: a.paid,
    remaining: freeRemaining + a.paid,
    periodStartsAt: period.startsAt,
    periodEndsAt: period.endsAt,
    durationDays: period.durationDays,
  };
}

/** The allowance of any (lower-case) account; one the engine never saw has a full period starting at `at`. */
export function allowanceView(s: EngineState, addr: Address, at: number): AllowanceView {
  const a = s.accts.get(addr);
  if (a) return allowanceOf(s, a, at);
  const { enabled, freePerPeriod, periodMs } = s.config.allowance;
  const period = allowancePeriod(at, at, periodMs);
  return {
    enabled,
    freePerPeriod,
    freeUsed: 0,
    freeRemaining: freePerPeriod,
    paidRemaining: 0,
    remaining: freePerPeriod,
    periodStartsAt: period.startsAt,
    periodEndsAt: period.endsAt,
    durationDays: period.durationDays,
  };
}
