/**
 * The checks of a creation request (POST /negotiate/preflight; propose and accept run them again): each failure with
 * its code and field, all at once. Pure over what it is given: the request, the creator's standing, its available
 * PM, whether it already used the externalId, the served collaterals and the clock.
 */
import { creationBond } from "../../../relayer/lifecycle/fund-flows";
import { MARKET_CATEGORIES } from "../markets/seed/market-spec";
import { textFailures, normaliseTitle } from "./content";
import type { CheckFailure } from "./failures";
import { resolutionSourceSchema, type ResolutionSource } from "./resolution-sources";
import { closeTimeMs, type CreationRequest } from "./request";
import type { CreatorStanding } from "./creator-standing";
import { maxSeedOf } from "./reputation-rules";

export type Lane = "committed" | "onchain";

/** A collateral a market may use: PM (committed lane) or a router collateral on chain (onchain lane). */
export interface ServedCollateral {
  symbol: string;
  /** The token on chain; null for PM before the contracts are deployed (the committed ledger needs no token). */
  token: string | null;
  decimals: number;
  lane: Lane;
}

const HOUR = 3_600_000;
/** A market stays open at least an hour and closes within two years. */
export const MIN_OPEN_MS = HOUR;
export const MAX_OPEN_MS = 2 * 365 * 24 * HOUR;
/** The smallest LMSR seed: 10 units of the collateral (10 PM). */
export const MIN_SEED_UNITS = 10_000_000n;

/** Categories whose names were retired, stored as their successor (spec: "retired names are stored as their successor"). */
const RETIRED_CATEGORIES: Record<string, (typeof MARKET_CATEGORIES)[number]> = {
  HEALTH: "SCIENCE_HEALTH",
  SCIENCE: "SCIENCE_HEALTH",
  ENTERTAINMENT: "MOVIES_TV",
};

export interface CreationPlan {
  lane: Lane;
  collateral: ServedCollateral;
  pricing: "LMSR" | "ORDERBOOK";
  pricingModel: "automated" | "ORDERBOOK";
  title: string;
  description: string;
  category: string;
  outcomes: string[];
  closeTime: number;
  seed: bigint | null;
  /** The creation bond in PM units (bonds.creator of the rules). */
  bond: bigint;
  resolutionSource: ResolutionSource;
}

export interface PreflightInput {
  request: CreationRequest;
  now: number;
  standing: CreatorStanding;
  /** PM the creator can lock now (engine available balance). */
  availablePm: bigint;
  /** The creator already listed a market, or holds an accepted negotiation, under this externalId. */
  externalIdTaken: boolean;
  walletAddress: string | null;
  collaterals: readonly ServedCollateral[];
}

export function categoryOf(raw: string): string | null {
  const up = raw.trim().toUpperCase();
  if ((MARKET_CATEGORIES as readonly string[]).includes(up)) return up;
  return RETIRED_CATEGORIES[up] ?? null;
}

export function findCollateral(collaterals: readonly ServedCollateral[], wanted: string): ServedCollateral | undefined {
  const w = wanted.toLowerCase();
  return collaterals.find((c) => c.symbol.toLowerCase() === w || (c.token !== null && c.token.toLowerCase() === w));
}

export function preflight(input: PreflightInput): { failures: CheckFailure[]; plan: CreationPlan | null } {
  const { request: r, now, standing } = input;
  const failures: CheckFailure[] = [];
  const fail = (code: CheckFailure["code"], field: string, message: string, reason?: string) =>
    failures.push({ code, field, message, ...(reason ? { reason } : {}) });

  // Reputation gates first (a closed gate is the answer that matters most):: creation allowed, a cohort slot, room under the concurrent limit.
  if (!standing.tierGates.canCreate) {
    const reason = standing.creatorTier === "suspended" ? "tier_suspended" : standing.slotState === "revoked" ? "slot_revoked" : "cohort_full";
    fail("CREATION_NOT_ALLOWED", "creator", `creation is closed to you now (${reason.replace("_", " ")}); see GET /discover/reputation`, reason);
  } else if (standing.creation.remaining <= 0) {
    fail(
      "CONCURRENT_MARKET_LIMIT",
      "creator",
      `you hold ${standing.creation.activeMarkets} live markets and ${standing.reserved} accepted terms; your limit is ${standing.creation.effectiveConcurrentLimit}`,
    );
  }

  if (input.externalIdTaken)
    fail("EXTERNAL_ID_TAKEN", "externalId", `you already created (or hold accepted terms for) a market with externalId ${JSON.stringify(r.externalId)}`);
  failures.push(...textFailures(r.title, r.description, r.outcomes));
  const category = categoryOf(r.category);
  if (!category) fail("INVALID_PAYLOAD", "category", `${JSON.stringify(r.category)} is not a MarketCategory`);

  const closeTime = closeTimeMs(r);
  if (!Number.isFinite(closeTime) || closeTime < now + MIN_OPEN_MS)
    fail("CLOSE_TIME_OUT_OF_RANGE", "closeTime", `closeTime must be at least ${MIN_OPEN_MS / HOUR} hour after now (${new Date(now).toISOString()})`);
  else if (closeTime > now + MAX_OPEN_MS) fail("CLOSE_TIME_OUT_OF_RANGE", "closeTime", "closeTime must be within two years of now");

  const source = resolutionSourceSchema.safeParse(r.resolutionSource);
  if (!source.success)
    fail(
      "RESOLUTION_SOURCE_UNSUPPORTED",
      "resolutionSource",
      `not an envelope of GET /discover/resolution-sources: ${source.error.issues[0]?.message ?? "invalid"}`,
    );

  const collateral = findCollateral(input.collaterals, r.collateral);
  if (!collateral)
    fail(
      "COLLATERAL_NOT_SERVED",
      "collateral",
      `${r.collateral} is not a collateral of GET /markets/config (served: ${input.collaterals.map((c) => c.symbol).join(", ")})`,
    );
  const lane = collateral?.lane ?? "committed";
  const n = r.outcomes.length;
  const pricing = r.pricingModel === "ORDERBOOK" ? "ORDERBOOK" : "LMSR";
  // The committed ledger is binary (asset ids carry side 0 or 1); ternary markets live on the on-chain lane, and the
  // on-chain lane has no order book.
  if (lane === "committed" && n !== 2)
    fail(
      "MARKET_SHAPE_UNSUPPORTED",
      "outcomes",
      `committed-lane (${collateral?.symbol ?? "PM"}) markets are binary; use an on-chain collateral for ${n} outcomes`,
    );
  if (lane === "onchain" && pricing === "ORDERBOOK")
    fail("MARKET_SHAPE_UNSUPPORTED", "pricingModel", "on-chain markets are LMSR (automated); order books run on the committed lane (PM)");
  if (lane === "onchain" && (n < 2 || n > 3)) fail("MARKET_SHAPE_UNSUPPORTED", "outcomes", "on-chain LMSR markets have 2 or 3 outcomes");
  if (lane === "onchain" && !input.walletAddress) fail("WALLET_REQUIRED", "collateral", "on-chain markets are created by your bound wallet; bind one first");

  let seed: bigint | null = null;
  if (pricing === "ORDERBOOK") {
    if (r.seed !== undefined) fail("INVALID_PAYLOAD", "seed", "ORDERBOOK markets have no seed");
  } else if (r.seed === undefined) fail("INVALID_PAYLOAD", "seed", "LMSR markets need a seed");
  else {
    seed = BigInt(r.seed);
    const max = maxSeedOf(standing.tierGates);
    if (seed < MIN_SEED_UNITS) fail("INVALID_PAYLOAD", "seed", `the seed is at least ${MIN_SEED_UNITS} units`);
    else if (standing.tierGates.canCreate && max !== null && seed > max)
      fail(
        "SEED_ABOVE_LIMIT",
        "seed",
        `your tier (${standing.creatorTier}, maxSeedMultiplier ${standing.tierGates.maxSeedMultiplier}) allows a seed of at most ${max} units`,
      );
  }

  // PM to lock: the bond always (PM on the committed ledger), plus the seed on the committed lane.
  const bond = creationBond(seed);
  const lock = bond + (lane === "committed" && seed !== null ? seed : 0n);
  if (input.availablePm < lock)
    fail(
      "INSUFFICIENT_BALANCE",
      lane === "committed" && seed !== null ? "seed" : "creator",
      `locking ${lock} PM units needs that much available; you have ${input.availablePm}`,
    );

  if (failures.length > 0 || !collateral || !category || !source.success) return { failures, plan: null };
  return {
    failures,
    plan: {
      lane,
      collateral,
      pricing,
      pricingModel: r.pricingModel,
      title: normaliseTitle(r.title),
      description: r.description.trim(),
      category,
      outcomes: r.outcomes.map((o) => o.trim()),
      closeTime,
      seed,
      bond,
      resolutionSource: source.data,
    },
  };
}
