/**
 * What a refused write must leave unchanged: the journal (journal_entries, execution_reports, ledger_batches) and every
 * service table, as a digest per table. Left out are the tables a refusal writes by design: the public call record
 * (every call, refused ones too, docs/api.md), the idempotency store (the answer kept for a retry with the same key),
 * and the projections of the journal that follow it in the background, catching up on journal writes made before the
 * refused call: the lifecycle projection's cursor, the account histories and the leaderboard's checkpoint. The journal
 * they are read from is checked itself.
 */
import type { SqlRunner } from "../../relayer/db/client";

const BOOKKEEPING = new Set([
  "api_call_records",
  "api_idempotency",
  "schema_migrations",
  "lifecycle_projection_cursor",
  "account_history_cursor",
  "account_cash_flows",
  "account_reputation_events",
  "account_trade_days",
  "leaderboard_checkpoint",
]);

export type Snapshot = Record<string, string>;

let cachedTables: { db: SqlRunner; sql: string } | null = null;

async function snapshotSql(db: SqlRunner): Promise<string> {
  if (cachedTables?.db === db) return cachedTables.sql;
  const rows = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const names = rows.map((r) => r.name).filter((n) => !BOOKKEEPING.has(n));
  const sql = names
    .map((n) => `SELECT '${n}' AS name, count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest FROM "${n}" t`)
    .join(" UNION ALL ");
  cachedTables = { db, sql };
  return sql;
}

/** Row count and content digest of each journal and service table. */
export async function snapshot(db: SqlRunner): Promise<Snapshot> {
  const rows = await db.query<{ name: string; digest: string }>(await snapshotSql(db));
  return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
}

/** Names of the tables whose digest differs. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((n) => before[n] !== after[n]).sort();
}
