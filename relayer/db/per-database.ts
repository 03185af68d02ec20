/**
 * In-process caches of table contents (the market catalog, key principals, webhook subscriptions...) keep one cache
 * per database handle and drop what its writes made stale (`Database.onWrite`, the tables of written-tables.ts).
 */
import type { Database, SqlRunner } from "./client";

/**
 * One cache per database handle, made on first use: `null` for a handle that cannot report its local writes
 * (a transaction runner, a bare SqlRunner), because such a cache could never be invalidated.
 */
export function perDatabase<C>(make: (db: Database) => C): (db: SqlRunner) => C | null {
  const made = new WeakMap<object, C>();
  return (db) => {
    const known = made.get(db);
    if (known) return known;
    const full = db as Partial<Database>;
    if (typeof full.onWrite !== "function" || typeof full.transaction !== "function") return null;
    const cache = make(db as Database);
    made.set(db, cache);
    return cache;
  };
}
