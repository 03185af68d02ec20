/**
 * The units an identity banked (docs/participation-release.md): one for each finished UTC day, from the day its
 * identity was verified, on which one of its current members traded. Days are banked when a member next reads its
 * state or prepares a claim, and never change afterwards; the pool row, locked, keeps the bank within the pool.
 */
import type { Database, SqlRunner } from "../../../relayer/db/client";
import { COMMUNITY_POOL_WEI } from "../../../relayer/participation-release";
import { dayOf, UNIT_WEI } from "./program";

export interface IdentityLane {
  identityId: string;
  verifiedAt: number;
  /** UTC days on which one of its current members traded. */
  tradeDays: ReadonlySet<number>;
}

/** Banks the lane's finished trading days not banked yet, in day order, while the pool (`poolWei`) has units left. */
export async function bankFinishedDays(db: Database, releaseId: string, lane: IdentityLane, now: number, poolWei = COMMUNITY_POOL_WEI): Promise<void> {
  const [last] = await db.query<{ day: number | null }>(`SELECT max(day) AS day FROM participation_credits WHERE identity_id = $1`, [lane.identityId]);
  const after = last?.day ?? Number.NEGATIVE_INFINITY;
  const from = dayOf(lane.verifiedAt);
  const today = dayOf(now);
  const days = [...lane.tradeDays].filter((d) => d >= from && d < today && d > after).sort((a, b) => a - b);
  if (days.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.query(`INSERT INTO participation_pool (release_id, banked) VALUES ($1, 0) ON CONFLICT (release_id) DO NOTHING`, [releaseId]);
    const [pool] = await tx.query<{ banked: string }>(`SELECT banked::text AS banked FROM participation_pool WHERE release_id = $1 FOR UPDATE`, [releaseId]);
    let banked = BigInt(pool.banked);
    for (const day of days) {
      if (banked + UNIT_WEI > poolWei) break;
      const inserted = await tx.query(
        `INSERT INTO participation_credits (identity_id, day, amount, credited_at) VALUES ($1, $2, $3, $4) ON CONFLICT (identity_id, day) DO NOTHING RETURNING day`,
        [lane.identityId, day, UNIT_WEI.toString(), now],
      );
      if (inserted.length > 0) banked += UNIT_WEI;
    }
    await tx.query(`UPDATE participation_pool SET banked = $2 WHERE release_id = $1`, [releaseId, banked.toString()]);
  });
}

export interface CreditTotals {
  /** Everything the identity banked (base units). */
  bankedWei: bigint;
  /** The first banked day, or null. */
  firstDay: number | null;
}

export async function creditTotals(db: SqlRunner, identityId: string): Promise<CreditTotals> {
  const [row] = await db.query<{ total: string; first: number | null }>(
    `SELECT COALESCE(sum(amount), 0)::text AS total, min(day) AS first FROM participation_credits WHERE identity_id = $1`,
    [identityId],
  );
  return { bankedWei: BigInt(row.total), firstDay: row.first === null ? null : Number(row.first) };
}

/** What the pool has not banked yet (base units). */
export async function poolRemaining(db: SqlRunner, releaseId: string, poolWei = COMMUNITY_POOL_WEI): Promise<bigint> {
  const [row] = await db.query<{ banked: string }>(`SELECT banked::text AS banked FROM participation_pool WHERE release_id = $1`, [releaseId]);
  return poolWei - BigInt(row?.banked ?? 0);
}
