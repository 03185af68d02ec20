/**
 * The store of engine snapshots (migration 120_engine_snapshots.sql, docs/journal.md "Snapshots"). A snapshot names the
 * entry it was taken after by the hash of that entry's text, so one from another journal (a database restored to an
 * earlier point, then written on) is recognised, not restored.
 */
import type { SqlRunner } from "../db/client";

/** A stored snapshot: the engine's state after entry `seq` (whose `at` it keeps). */
export interface StoredSnapshot {
  seq: number;
  at: number;
  body: string;
  /** False when the journal's entry `seq` is not the one the snapshot was taken after (or is gone). */
  matchesJournal: boolean;
}

/** Snapshots kept: the newest and the one before it, should the newest not restore. */
export const SNAPSHOTS_KEPT = 2;

const ENTRY_HASH = `md5(e.command::text || e.ops::text)`;

/** Stores the state after committed entry `seq` and drops all but the newest SNAPSHOTS_KEPT. */
export async function saveSnapshot(db: SqlRunner, seq: number, body: string, createdAt: number): Promise<void> {
  await db.query(
    `INSERT INTO engine_snapshots (seq, at, entry_hash, body, created_at)
     SELECT e.seq, e.at, ${ENTRY_HASH}, $2, $3 FROM journal_entries e WHERE e.seq = $1
     ON CONFLICT (seq) DO NOTHING`,
    [seq, body, createdAt],
  );
  await db.query(`DELETE FROM engine_snapshots WHERE seq NOT IN (SELECT seq FROM engine_snapshots ORDER BY seq DESC LIMIT ${SNAPSHOTS_KEPT})`);
}

/** The newest snapshot taken at or before entry `maxSeq`, or null. */
export async function latestSnapshot(db: SqlRunner, maxSeq: number): Promise<StoredSnapshot | null> {
  const [row] = await db.query<{ seq: string; at: string; body: string; matches: boolean | null }>(
    `SELECT s.seq::text, s.at::text, s.body, ${ENTRY_HASH} = s.entry_hash AS matches
     FROM engine_snapshots s LEFT JOIN journal_entries e ON e.seq = s.seq
     WHERE s.seq <= $1 ORDER BY s.seq DESC LIMIT 1`,
    [maxSeq],
  );
  return row ? { seq: Number(row.seq), at: Number(row.at), body: row.body, matchesJournal: row.matches === true } : null;
}
