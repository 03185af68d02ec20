/**
 * The migration runner: ordered plain SQL files (`NNN_name.sql`), each applied once and recorded in
 * `schema_migrations`. A file and its bookkeeping row go as one simple-protocol string, which Postgres runs as one
 * implicit transaction: a failing file leaves nothing behind. Keep the SQL within PostgreSQL 15 (the server here);
 * PGlite is PostgreSQL 17+ inside and accepts the same.
 *
 * Each part owns its tables: the caller names the directories (the relayer's journal and ledger tables here, the
 * service's in api/platform/db/migrations). Files of all directories run in one order, by version, and the
 * bookkeeping names a migration by version and name only, never by directory: a database migrated when every file
 * sat in one folder opens unchanged.
 *
 * Numbering by area keeps parallel work apart: 001-099 foundation, 100-199 relayer (journal, engine),
 * 200-299 API core, 300-399 trading surface and realtime, 400-499 indexer reads.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "./client";

/** The relayer's migrations: the data layer's foundation (001-099) and the journal and ledger tables (100-199). */
export const RELAYER_MIGRATIONS_DIR = join(__dirname, "migrations");

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

/**
 * Reads the migration files of `dirs`, merged into one order by file name (so by version). Names must look like
 * `001_name.sql`; versions must be unique across all the directories.
 */
export function readMigrations(dirs: readonly string[]): Migration[] {
  const files = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .map((file) => ({ dir, file })),
  );
  files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const seen = new Set<string>();
  return files.map(({ dir, file }) => {
    const m = /^(\d{3})_([a-z0-9_]+)\.sql$/.exec(file);
    if (!m) throw new Error(`migration file name ${file} must look like 001_name.sql`);
    if (seen.has(m[1])) throw new Error(`two migrations share version ${m[1]}`);
    seen.add(m[1]);
    return { version: m[1], name: m[2], sql: readFileSync(join(dir, file), "utf8") };
  });
}

const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version text PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Applies every pending migration of `migrations` (see readMigrations); returns the versions applied by this call.
 * Safe to run from two processes.
 */
export async function migrate(db: Database, migrations: readonly Migration[]): Promise<string[]> {
  await db.exec(BOOKKEEPING);
  const applied: string[] = [];
  for (const m of migrations) {
    const done = await db.query(`SELECT 1 FROM schema_migrations WHERE version = $1`, [m.version]);
    if (done.length > 0) continue;
    // The advisory lock serialises concurrent runners; the bookkeeping insert comes first so that a runner
    // that waited on the lock fails on the primary key instead of applying the file twice.
    const script =
      (db.kind === "postgres" ? `SELECT pg_advisory_xact_lock(7310001);\n` : "") +
      `INSERT INTO schema_migrations (version, name) VALUES ('${m.version}', '${m.name}');\n${m.sql}`;
    try {
      await db.exec(script);
      applied.push(m.version);
    } catch (err) {
      const again = await db.query(`SELECT 1 FROM schema_migrations WHERE version = $1`, [m.version]);
      if (again.length === 0) throw new Error(`migration ${m.version}_${m.name} failed: ${(err as Error).message}`, { cause: err });
    }
  }
  return applied;
}
