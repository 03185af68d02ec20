/**
 * The operator's actions on creators (docs/market-creation.md "Operator actions"): grant or clear a tier, grant or
 * revoke a public cohort slot, set the cohort's capacity. Each is one statement or transaction and answers what it
 * changed; the admin API and `npm run admin` call them while the service runs. Accounts are lower-case.
 */
import type { Database, SqlRunner } from "../../../relayer/db/client";
import { ApiError } from "../../platform/errors/api-error";
import { cohortOf } from "./creator-standing";
import { isCreatorTier, type CreatorTier } from "./reputation-rules";

async function ensureCreator(db: SqlRunner, creator: string, now: number): Promise<void> {
  await db.query(`INSERT INTO market_creators (creator, updated_at) VALUES ($1, $2) ON CONFLICT (creator) DO NOTHING`, [creator.toLowerCase(), now]);
}

/** Grants `tier` (or, with null, returns the creator to the rule over its history). */
export async function setCreatorTier(
  db: SqlRunner,
  creator: string,
  tier: CreatorTier | null,
  now: number,
): Promise<{ creator: string; tierOverride: CreatorTier | null }> {
  if (tier !== null && !isCreatorTier(tier)) throw new ApiError("INVALID_PAYLOAD", `unknown creator tier ${String(tier)}`, { field: "tier" });
  await ensureCreator(db, creator, now);
  await db.query(`UPDATE market_creators SET tier_override = $2, updated_at = $3 WHERE creator = $1`, [creator.toLowerCase(), tier, now]);
  return { creator: creator.toLowerCase(), tierOverride: tier };
}

/** Gives the creator a public cohort slot, beyond the capacity if need be (an operator's decision). */
export async function grantCreatorSlot(db: Database, creator: string, now: number): Promise<{ creator: string; slot: "held"; ordinal: number }> {
  return db.transaction(async (tx) => {
    await ensureCreator(tx, creator, now);
    const [row] = await tx.query<{ slot: string; slot_ordinal: unknown }>(`SELECT slot, slot_ordinal FROM market_creators WHERE creator = $1 FOR UPDATE`, [
      creator.toLowerCase(),
    ]);
    if (row?.slot === "held") return { creator: creator.toLowerCase(), slot: "held" as const, ordinal: Number(row.slot_ordinal) };
    const ordinal = await nextOrdinal(tx);
    await tx.query(`UPDATE market_creators SET slot = 'held', slot_ordinal = $2, updated_at = $3 WHERE creator = $1`, [creator.toLowerCase(), ordinal, now]);
    return { creator: creator.toLowerCase(), slot: "held" as const, ordinal };
  });
}

/** Takes the creator's slot away: it cannot take a new one by itself (its live markets stay). */
export async function revokeCreatorSlot(db: SqlRunner, creator: string, now: number): Promise<{ creator: string; slot: "revoked" }> {
  await ensureCreator(db, creator, now);
  await db.query(`UPDATE market_creators SET slot = 'revoked', slot_ordinal = NULL, updated_at = $2 WHERE creator = $1`, [creator.toLowerCase(), now]);
  return { creator: creator.toLowerCase(), slot: "revoked" };
}

/** Sets the public cohort's capacity (0 closes public creation to creators without a slot). */
export async function setCohortLimit(db: SqlRunner, limit: number, now: number): Promise<{ limit: number; occupied: number }> {
  if (!Number.isInteger(limit) || limit < 0) throw new ApiError("INVALID_PAYLOAD", "the slot limit is an integer >= 0", { field: "limit" });
  await db.query(
    `INSERT INTO market_creator_cohort (id, slot_limit, updated_at) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET slot_limit = $1, updated_at = $2`,
    [limit, now],
  );
  return cohortOf(db);
}

async function nextOrdinal(tx: SqlRunner): Promise<number> {
  const [r] = await tx.query<{ n: unknown }>(`SELECT COALESCE(MAX(slot_ordinal), 0) + 1 AS n FROM market_creators`);
  return Number(r?.n ?? 1);
}
