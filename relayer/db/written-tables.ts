/**
 * Which tables a SQL text writes, read from its text (INSERT INTO / UPDATE / DELETE FROM / TRUNCATE / MERGE INTO,
 * CTEs included; DDL counts as a write of every table). In-process caches of table contents (the market catalog,
 * key principals) use it through `Database.onWrite` to drop what a local write made stale, whoever made the write
 * (one cache per database handle: per-database.ts).
 * A false positive only costs a cache miss; texts are memoised because hot paths send the same few texts again.
 */
/** Stands for "any table" (DDL, or a statement whose target cannot be read). */
export const ANY_TABLE = "*";

const WRITE_TARGET =
  /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?((?:"?[A-Za-z_][A-Za-z0-9_$]*"?\s*\.\s*)?"?[A-Za-z_][A-Za-z0-9_$]*"?)/gi;
const DDL = /\b(?:CREATE|ALTER|DROP)\s+(?:TABLE|SCHEMA|INDEX|VIEW|MATERIALIZED|UNLOGGED|TEMP|TEMPORARY)\b/i;
const ANY_WRITE = /\b(?:INSERT|UPDATE|DELETE|MERGE|TRUNCATE|CREATE|ALTER|DROP|COPY)\b/i;

const NONE: readonly string[] = [];
const memo = new Map<string, readonly string[]>();
const MEMO_LIMIT = 5_000;

/** Lower-case names (schema dropped) of the tables `sql` may write; empty for a plain read. */
export function writtenTables(sql: string): readonly string[] {
  const known = memo.get(sql);
  if (known) return known;
  let tables: readonly string[] = NONE;
  if (ANY_WRITE.test(sql)) {
    if (DDL.test(sql)) tables = [ANY_TABLE];
    else {
      const found = new Set<string>();
      for (const m of sql.matchAll(WRITE_TARGET)) {
        const name = m[1].replace(/"/g, "").replace(/\s+/g, "").split(".").pop()!.toLowerCase();
        // `ON CONFLICT ... DO UPDATE SET` names no table; neither does `FOR UPDATE`.
        if (name !== "set" && name !== "of" && name !== "nowait" && name !== "skip") found.add(name);
      }
      tables = found.size > 0 ? [...found] : NONE;
    }
  }
  if (memo.size < MEMO_LIMIT) memo.set(sql, tables);
  return tables;
}
