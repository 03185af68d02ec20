/**
 * The store of engine snapshots (migration 120_engine_snapshots.sql, docs/journal.md "Snapshots"). A snapshot names the
 * entry it was taken after by the hash of that entry's text, so one from another journal (a database restored to an
 * earlier point, then written on) is recognised, not restored. Its texts (Engine.snapshot()) are rows of their own.
 */
import type { Database, SqlRunner } from "../db/client";

/** A stored snapshot: the engine's state after entry `seq` (whose `at` it keeps). */
export interface StoredSnapshot {
  seq: number;
  at: number;
  parts: string[];
  /** False when the journal's entry `seq` is not the one the snapshot was taken after. */
  matchesJournal: boolean;
}

/** Snapshots kept: the newest and the one before it. */
export const SNAPSHOTS_KEPT = 2;

/** The SQL hash naming journal entry `e` by its text (a snapshot or checkpoint of another journal does not match it). */
export const ENTRY_HASH = `md5(e.command::text || e.ops::text)`;

/**
 * Stores the state after committed entry `seq`, in one transaction, replacing one stored for that entry before (which
 * may belong to the entry's earlier text), and drops all but the newest SNAPSHOTS_KEPT.
 */
export async function saveSnapshot(db: Database, seq: number, parts: readonly string[], createdAt: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`DELETE FROM engine_snapshots WHERE seq = $1`, [seq]);
    const stored = await tx.query(
      `INSERT INTO engine_snapshots (seq, at, entry_hash, parts, created_at)
       SELECT e.seq, e.at, ${ENTRY_HASH}, $2, $3 FROM journal_entries e WHERE e.seq = $1 RETURNING seq`,
      [seq, parts.length, createdAt],
    );
    if (stored.length === 0) throw new Error(`no journal entry ${seq}`);
    for (const [i, body] of parts.entries()) await tx.query(`INSERT INTO engine_snapshot_parts (seq, part, body) VALUES ($1, $2, $3)`, [seq, i, body]);
    await tx.query(`DELETE FROM engine_snapshots WHERE seq NOT IN (SELECT seq FROM engine_snapshots ORDER BY seq DESC LIMIT ${SNAPSHOTS_KEPT})`);
  });
}

/** The newest snapshot taken at or before entry `maxSeq`, or null. */
export async function latestSnapshot(db: SqlRunner, maxSeq: number): Promise<StoredSnapshot | null> {
  const [row] = await db.query<{ seq: string; at: string; parts: number; matches: boolean | null }>(
    `SELECT s.seq::text, s.at::text, s.parts, ${ENTRY_HASH} = s.entry_hash AS matches
     FROM engine_snapshots s LEFT JOIN journal_entries e ON e.seq = s.seq
     WHERE s.seq <= $1 ORDER BY s.seq DESC LIMIT 1`,
    [maxSeq],
  );
  if (!row) return null;
  const parts = await db.query<{ body: string }>(`SELECT body FROM engine_snapshot_parts WHERE seq = $1 ORDER BY part`, [row.seq]);
  if (parts.length !== row.parts) throw new Error(`engine snapshot ${row.seq}: ${parts.length} of its ${row.parts} parts stored`);
  return { seq: Number(row.seq), at: Number(row.at), parts: parts.map((p) => p.body), matchesJournal: row.matches === true };
}
