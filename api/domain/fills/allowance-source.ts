/**
 * Where GET /me (`fills`) and GET /fills/allowance read an account's fill allowance (spec "Fill allowance"):
 * `Services.allowance`, the exchange engine's counts (api/domain/venue/allowance.ts), and the response shape built
 * from them.
 */
import { allowancePeriod, FILL_ALLOWANCE_PERIOD_MS } from "../../../relayer/engine";
import { fillsOf, PM_BUNDLES, PM_PER_FILL } from "../pm/bundles";

/** The spec's `purchase` block: what a PM purchase (POST /pm/buy) adds to the allowance, from the published bundles. */
const PURCHASE = Object.freeze({
  pmPerFill: PM_PER_FILL,
  bundles: PM_BUNDLES.map((b) => ({
    usd: b.usdCents / 100,
    usdCents: b.usdCents,
    pm: b.pm,
    fills: fillsOf(b),
    ...(b.featured ? { featured: true as const } : {}),
  })),
});

export interface FillAllowancePeriod {
  kind: "fixed-week" | "calendar-month";
  startsAt: string;
  endsAt: string;
  durationDays: number;
}

/** MeFillAllowance: every field of the spec's table. */
export interface FillAllowance {
  enabled: boolean;
  freePerPeriod: number;
  freePerWeek: number | null;
  freeUsed: number;
  freeRemaining: number;
  paidRemaining: number;
  remaining: number;
  period: FillAllowancePeriod;
  resetsAt: string;
  /** Deprecated; 0 under fixed-week. */
  freePerMonth: number;
  /** Deprecated alias of resetsAt. */
  resetsOn: string;
  purchase: { pmPerFill: number; bundles: { usd: number; usdCents: number; pm: number; fills: number; featured?: true }[] };
}

export interface AllowanceAccount {
  /** Ledger account (lower-case 0x address). */
  account: string;
  /** The account's original signup instant (epoch ms): the seven-day periods are anchored here. */
  signupAt: number;
}

export interface AllowanceSource {
  allowanceOf(who: AllowanceAccount, now: number): Promise<FillAllowance>;
}

/** The fixed seven-day period containing `now`, anchored at the signup instant (the engine's period rule). */
export function fixedWeekPeriod(signupAt: number, now: number): FillAllowancePeriod {
  const p = allowancePeriod(signupAt, now, FILL_ALLOWANCE_PERIOD_MS);
  return { kind: "fixed-week", startsAt: new Date(p.startsAt).toISOString(), endsAt: new Date(p.endsAt).toISOString(), durationDays: p.durationDays };
}

/** Builds a response from counts (for sources that know them). */
export function allowanceOfCounts(
  who: AllowanceAccount,
  now: number,
  c: { enabled: boolean; freePerPeriod: number; freeUsed: number; paidRemaining: number },
): FillAllowance {
  const period = fixedWeekPeriod(who.signupAt, now);
  const freeRemaining = Math.max(0, c.freePerPeriod - c.freeUsed);
  return {
    enabled: c.enabled,
    freePerPeriod: c.freePerPeriod,
    freePerWeek: c.freePerPeriod,
    freeUsed: c.freeUsed,
    freeRemaining,
    paidRemaining: c.paidRemaining,
    remaining: freeRemaining + c.paidRemaining,
    period,
    resetsAt: period.endsAt,
    freePerMonth: 0,
    resetsOn: period.endsAt,
    purchase: { pmPerFill: PURCHASE.pmPerFill, bundles: PURCHASE.bundles.map((b) => ({ ...b })) },
  };
}
