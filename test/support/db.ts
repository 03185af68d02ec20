/**
 * Test databases: an in-memory PGlite by default; with DATABASE_URL, a fresh Postgres schema per call that
 * is dropped on close. Migrations are applied.
 */
import { randomBytes } from "node:crypto";
import { after, before } from "node:test";
import { openDatabase, type Database } from "../../relayer/db/client";
import { migrateService } from "../../api/platform/db/migrations";

export async function openTestDatabase(opts: { migrate?: boolean } = {}): Promise<Database> {
  const url = process.env.DATABASE_URL;
  const schema = url ? `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}` : undefined;
  const db = await openDatabase({ databaseUrl: url, schema });
  if (opts.migrate !== false) await migrateService(db);
  if (!url) return db;
  const close = db.close.bind(db);
  return Object.assign(db, {
    async close() {
      await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await close();
    },
  });
}

/** A test database for the enclosing suite: opened before its first test, closed after its last. Read `.db` in tests. */
export function suiteDatabase(): { readonly db: Database } {
  const suite = {} as { db: Database };
  before(async () => {
    suite.db = await openTestDatabase();
  });
  after(async () => {
    await suite.db?.close();
  });
  return suite;
}

/**
 * Environment for a service under test: nothing on PGlite; with DATABASE_URL, a schema of its own so suites never
 * share (or replay) each other's journal. The schema is left for the database's owner to drop.
 */
export function testDatabaseEnv(): Record<string, string> {
  const url = process.env.DATABASE_URL;
  return url ? { DATABASE_URL: url, DATABASE_SCHEMA: `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}` } : {};
}

/**
 * Drops a service's Postgres schema once the service stopped, on a connection of its own (nothing without a URL). Dropped under a running service, its background writers (the lifecycle projection's cursor) could
 * deadlock with the DROP, and a failed drop before close left the service running and the test process hanging.
 */
export async function dropServiceSchema(schema: string | undefined, url = process.env.DATABASE_URL): Promise<void> {
  if (!url || !schema) return;
  const db = await openDatabase({ databaseUrl: url });
  try {
    await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await db.close();
  }
}
