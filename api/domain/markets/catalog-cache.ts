/**
 * The in-process cache of catalog reads (docs/discovery.md "Consistency of cached reads"). Discovery reads and the
 * order path's market lookup ask the same few questions thousands of times a second; each answer is kept, per
 * database handle, in the current *epoch*, and every entry of an epoch is dropped together when
 *   - anything in this process writes `markets`, `market_trades` or `market_price_frames` (Database.onWrite, so every
 *     writer counts, after commit when it writes in a transaction),
 *   - the read's `now` leaves the epoch's time span [from, until): `until` is the first instant at which a clock-
 *     dependent part of an answer can change (the next close_time after `from`, when an open market starts to read
 *     closed and `closing_soon` drops it; the instant the oldest trade of the last 24 h leaves volume_24h), so an
 *     answer is the same for every `now` of the span — EFFECTIVE_STATE_SQL stays exact,
 *   - the epoch is older than the TTL (wall time, default 1 s): the bound on staleness of writes made by *other*
 *     instances sharing the database.
 * Reads through a transaction runner and reads of a database that cannot report its writes are never cached.
 */
import { ANY_TABLE } from "../../../relayer/db/written-tables";
import { perDatabase } from "../../../relayer/db/per-database";
import type { Database, SqlRunner } from "../../../relayer/db/client";

/** Wall-time bound on the staleness of a cached read (ms); 0 turns the cache off. Config DISCOVERY_CACHE_TTL_MS. */
export const DEFAULT_CATALOG_CACHE_TTL_MS = 1_000;
/** Entries per epoch; past it the oldest is dropped (arbitrary search strings must not grow memory). */
const MAX_ENTRIES = 5_000;
const DAY_MS = 86_400_000;
const CATALOG_TABLES = new Set(["markets", "market_trades", "market_price_frames", ANY_TABLE]);

interface Epoch {
  generation: number;
  /** The clock span whose answers are all alike. */
  from: number;
  until: number;
  /** performance.now() after which the epoch is stale. */
  expiresAt: number;
  entries: Map<string, Promise<unknown>>;
}

export class CatalogCache {
  private generation = 0;
  private epoch: Epoch | null = null;
  private opening: { generation: number; from: number; done: Promise<Epoch | null> } | null = null;

  constructor(
    private readonly db: Database,
    public ttlMs: number,
  ) {
    db.onWrite((tables) => {
      if (tables.some((t) => CATALOG_TABLES.has(t))) this.invalidate();
    });
  }

  /** Drops every entry (a local write). Reads in flight that began before are not kept. */
  invalidate(): void {
    this.generation++;
    this.epoch = null;
    this.opening = null;
  }

  /** The answer of `load` at `now`, shared with every read of the same `key` in the epoch that holds `now`. */
  async read<T>(key: string, now: number, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const epoch = await this.epochAt(now);
    if (!epoch) return load();
    const known = epoch.entries.get(key);
    if (known) return known as Promise<T>;
    const loading = load();
    epoch.entries.set(key, loading);
    if (epoch.entries.size > MAX_ENTRIES) epoch.entries.delete(epoch.entries.keys().next().value as string);
    loading.catch(() => epoch.entries.delete(key));
    return loading;
  }

  private fresh(e: Epoch | null, now: number): e is Epoch {
    return e !== null && e.generation === this.generation && now >= e.from && now < e.until && performance.now() < e.expiresAt;
  }

  private async epochAt(now: number): Promise<Epoch | null> {
    if (this.fresh(this.epoch, now)) return this.epoch;
    const opening = this.opening;
    if (opening && opening.generation === this.generation && now >= opening.from) {
      const e = await opening.done;
      return this.fresh(e, now) ? e : null;
    }
    const generation = this.generation;
    const startedAt = performance.now();
    const done = this.horizon(now).then(
      (until): Epoch | null => {
        // A write landed while the horizon was read: this read goes to the database; the next opens an epoch.
        if (generation !== this.generation) return null;
        const e: Epoch = { generation, from: now, until, expiresAt: startedAt + this.ttlMs, entries: new Map() };
        this.epoch = e;
        return e;
      },
      () => null,
    );
    this.opening = { generation, from: now, done };
    const e = await done;
    if (this.opening?.done === done) this.opening = null;
    return this.fresh(e, now) ? e : null;
  }

  /** The first instant after `now` at which a clock-dependent part of a catalog answer can change. */
  private async horizon(now: number): Promise<number> {
    const [r] = await this.db.query<{ next_close: unknown; oldest_trade: unknown }>(
      `SELECT (SELECT MIN(close_time) FROM markets WHERE close_time > $1::bigint) AS next_close,
              (SELECT MIN(at) FROM market_trades WHERE at > $1::bigint - ${DAY_MS}) AS oldest_trade`,
      [now],
    );
    let until = Number.MAX_SAFE_INTEGER;
    if (r?.next_close !== null && r?.next_close !== undefined) until = Math.min(until, Number(r.next_close));
    if (r?.oldest_trade !== null && r?.oldest_trade !== undefined) until = Math.min(until, Number(r.oldest_trade) + DAY_MS);
    return until;
  }
}

/** The cache of a database handle; null for a transaction runner or a handle that cannot report its writes.
 *  The service sets the configured TTL at start (DISCOVERY_CACHE_TTL_MS, api/config.ts); tools get the default. */
export const catalogCacheOf = perDatabase((db) => new CatalogCache(db, DEFAULT_CATALOG_CACHE_TTL_MS));

/** Sets the TTL of a database's catalog cache (0 turns it off), e.g. from the service configuration. */
export function configureCatalogCache(db: SqlRunner, opts: { ttlMs: number }): void {
  const cache = catalogCacheOf(db);
  if (cache) {
    cache.ttlMs = opts.ttlMs;
    cache.invalidate();
  }
}

/** `load()` through the cache of `db` when it has one, else straight to the database. */
export function cachedRead<T>(db: SqlRunner, key: string, now: number, load: () => Promise<T>): Promise<T> {
  const cache = catalogCacheOf(db);
  return cache ? cache.read(key, now, load) : load();
}
