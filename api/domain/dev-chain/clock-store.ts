/** The persisted clock offset (migration 340): read at start, written on every advance. */
import type { SqlRunner } from "../../../relayer/db/client";

export async function readClockOffset(db: SqlRunner): Promise<number> {
  const [row] = await db.query<{ offset_ms: string }>(`SELECT offset_ms FROM api_dev_clock WHERE id = 1`);
  return row ? Number(row.offset_ms) : 0;
}

/** Stores `offsetMs` unless a larger one is stored already (the offset never shrinks). */
export async function writeClockOffset(db: SqlRunner, offsetMs: number, at: number): Promise<void> {
  await db.query(
    `INSERT INTO api_dev_clock (id, offset_ms, updated_at) VALUES (1, $1, $2)
     ON CONFLICT (id) DO UPDATE SET offset_ms = GREATEST(api_dev_clock.offset_ms, EXCLUDED.offset_ms), updated_at = EXCLUDED.updated_at`,
    [offsetMs, at],
  );
}
