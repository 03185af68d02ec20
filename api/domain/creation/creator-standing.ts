/**
 * A creator's standing: its tier (an operator's grant, else the rule over its history), the gates of that tier, its
 * live markets and reservations against the concurrent limit, and its place in the public creator cohort (slots).
 * `GET /me` and `GET /discover/reputation` show it; preflight and accept enforce it. Accounts are lower-case.
 */
import type { SqlRunner } from "../../../relayer/db/client";
import { JUROR_TIER, TIER_GATES, isCreatorTier, tierFromHistory, type CreatorHistory, type CreatorTier, type TierGates } from "./reputation-rules";

/** Public cohort capacity until an operator sets one (`npm run admin -- creators slots-limit <n>`). */
export const DEFAULT_SLOT_LIMIT = 1_000;

/** How a final market ended for its creator (read from the engine's lifecycle record). */
export type FinalOutcome = "unchallenged" | "overturned" | "upheld" | "other";
export type OutcomeOf = (marketId: bigint) => FinalOutcome;

export interface Slots {
  limit: number;
  occupied: number;
  available: number;
  unlimited: false;
  holdsSlot: boolean;
}

export interface CreatorStanding {
  creatorTier: CreatorTier;
  jurorTier: string;
  tierGates: TierGates;
  creation: { effectiveConcurrentLimit: number; activeMarkets: number; remaining: number; slots: Slots | null };
  /** Ours: accepted negotiations not yet deployed (they count against the limit), and why creation is closed. */
  reserved: number;
  /** True when an operator granted the tier (granted creators need no public cohort slot). */
  granted: boolean;
  slotState: "none" | "held" | "revoked";
  history: CreatorHistory;
}

const num = (v: unknown) => Number(v ?? 0);

export async function cohortOf(db: SqlRunner): Promise<{ limit: number; occupied: number }> {
  const [row] = await db.query<{ slot_limit: unknown; occupied: unknown }>(
    `SELECT (SELECT slot_limit FROM market_creator_cohort WHERE id = 1) AS slot_limit,
            (SELECT COUNT(*) FROM market_creators WHERE slot = 'held') AS occupied`,
  );
  const limit = row?.slot_limit === null || row?.slot_limit === undefined ? DEFAULT_SLOT_LIMIT : num(row.slot_limit);
  return { limit, occupied: num(row?.occupied) };
}

/** Public slots as the spec shows them (catalog.json and the `creation.slots` of an agent). */
export async function publicSlots(db: SqlRunner, holdsSlot = false): Promise<Slots> {
  const { limit, occupied } = await cohortOf(db);
  return { limit, occupied, available: Math.max(0, limit - occupied), unlimited: false, holdsSlot };
}

/** The rule's history from the creator's markets: every one counts as created; final ones by how they ended. */
function historyOf(created: number, finalIds: readonly string[], outcomeOf: OutcomeOf): CreatorHistory {
  const h: CreatorHistory = { created, resolvedUnchallenged: 0, overturned: 0 };
  for (const id of finalIds) {
    const o = outcomeOf(BigInt(id));
    if (o === "unchallenged") h.resolvedUnchallenged++;
    else if (o === "overturned") h.overturned++;
  }
  return h;
}

/** Everything the standing reads, in one statement (preflight, accept and GET /me each read it once). */
const STANDING_SQL = `SELECT c.tier_override, c.slot,
    (SELECT COUNT(*) FROM markets WHERE creator = $1) AS created,
    (SELECT COUNT(*) FROM markets WHERE creator = $1 AND state NOT IN ('resolved', 'void')) AS active,
    (SELECT COALESCE(jsonb_agg(market_id::text), '[]'::jsonb)::text FROM markets
      WHERE creator = $1 AND state IN ('resolved', 'void') AND market_id IS NOT NULL) AS final_ids,
    (SELECT COUNT(*) FROM market_negotiations WHERE creator = $1 AND status = 'accepted' AND expires_at > $2) AS reserved,
    (SELECT slot_limit FROM market_creator_cohort WHERE id = 1) AS slot_limit,
    (SELECT COUNT(*) FROM market_creators WHERE slot = 'held') AS occupied
  FROM (SELECT 1) AS one LEFT JOIN market_creators c ON c.creator = $1`;

interface StandingRow {
  tier_override: string | null;
  slot: "none" | "held" | "revoked" | null;
  created: unknown;
  active: unknown;
  final_ids: string;
  reserved: unknown;
  slot_limit: unknown;
  occupied: unknown;
}

/** What a standing is computed from: the database's row (STANDING_SQL) or the flow's mirror (creation-state.ts). */
export interface StandingInputs {
  tierOverride: string | null;
  slot: "none" | "held" | "revoked";
  created: number;
  active: number;
  finalIds: readonly string[];
  reserved: number;
  /** null until an operator set one. */
  slotLimit: number | null;
  occupied: number;
}

export async function creatorStanding(db: SqlRunner, creator: string, now: number, outcomeOf: OutcomeOf): Promise<CreatorStanding> {
  const account = creator.toLowerCase();
  const [row] = await db.query<StandingRow>(STANDING_SQL, [account, now]);
  return standingOf(
    {
      tierOverride: row?.tier_override ?? null,
      slot: row?.slot ?? "none",
      created: num(row?.created),
      active: num(row?.active),
      finalIds: JSON.parse(row?.final_ids ?? "[]") as string[],
      reserved: num(row?.reserved),
      slotLimit: row?.slot_limit === null || row?.slot_limit === undefined ? null : num(row.slot_limit),
      occupied: num(row?.occupied),
    },
    outcomeOf,
  );
}

/** The standing's one rule: tier, gates, cohort and the concurrent limit from its inputs. */
export function standingOf(input: StandingInputs, outcomeOf: OutcomeOf): CreatorStanding {
  const history = historyOf(input.created, input.finalIds, outcomeOf);
  const override = input.tierOverride && isCreatorTier(input.tierOverride) ? input.tierOverride : null;
  const tier = override ?? tierFromHistory(history);
  const gates = TIER_GATES[tier];
  const slotState = input.slot;
  const limitOfCohort = input.slotLimit ?? DEFAULT_SLOT_LIMIT;
  const occupied = input.occupied;
  const cohort: Slots = { limit: limitOfCohort, occupied, available: Math.max(0, limitOfCohort - occupied), unlimited: false, holdsSlot: slotState === "held" };
  const granted = override !== null;
  // The public cohort gates creators without an operator's grant: a revoked slot, or none left to take, closes it.
  const cohortOpen = granted || slotState === "held" || (slotState === "none" && cohort.available > 0);
  const active = input.active;
  const reserved = input.reserved;
  const limit = gates.canCreate && cohortOpen ? gates.concurrentMarketLimit : 0;
  return {
    creatorTier: tier,
    jurorTier: JUROR_TIER,
    tierGates: { ...gates, canCreate: gates.canCreate && cohortOpen },
    creation: { effectiveConcurrentLimit: limit, activeMarkets: active, remaining: Math.max(0, limit - active - reserved), slots: cohort },
    reserved,
    granted,
    slotState,
    history,
  };
}

/** The reputation block of GET /me and GET /discover/reputation. */
export function reputationView(s: CreatorStanding) {
  return { creatorTier: s.creatorTier, jurorTier: s.jurorTier, tierGates: s.tierGates, creation: s.creation };
}
