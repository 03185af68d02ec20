/**
 * The service's database: the relayer's tables (data-layer foundation, journal, ledger batches) and the service's
 * own (agents and keys, catalog, content, purchases, webhooks: the files beside this module, 200 and up). The
 * relayer's runner applies both directories in one version order (relayer/db/migrate.ts).
 */
import { join } from "node:path";
import type { Database } from "../../../relayer/db/client";
import { migrate, readMigrations, RELAYER_MIGRATIONS_DIR, type Migration } from "../../../relayer/db/migrate";

/** The service's own migrations. */
export const API_MIGRATIONS_DIR = join(__dirname, "migrations");

/** Every migration the service's database needs, in the order they apply. */
export function serviceMigrations(): Migration[] {
  return readMigrations([RELAYER_MIGRATIONS_DIR, API_MIGRATIONS_DIR]);
}

/** Applies the service's pending migrations; returns the versions applied now. */
export function migrateService(db: Database): Promise<string[]> {
  return migrate(db, serviceMigrations());
}
