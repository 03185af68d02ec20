/**
 * Webhook subscriptions kept in memory for the paths that ask on every event (each committed report batch, each new
 * market's state change): entries by key (an account, or an event type for every account), read in one call for the
 * keys not held. Any local write of `api_webhook_subscriptions` (or DDL) drops them all after it committed; the TTL
 * bounds another instance's write.
 */
import type { Database } from "../../../relayer/db/client";
import { ANY_TABLE } from "../../../relayer/db/written-tables";
import { perDatabase } from "../../../relayer/db/per-database";

export type Sub = { id: string; account: string };

const SUBS_TTL_MS = 1_000;
const SUBS_MAX = 10_000;

class SubscriptionCache {
  readonly #entries = new Map<string, { expiresAt: number; subs: readonly Sub[] }>();
  #generation = 0;

  constructor(db: Database) {
    db.onWrite((tables) => {
      if (tables.includes("api_webhook_subscriptions") || tables.includes(ANY_TABLE)) {
        this.#entries.clear();
        this.#generation++;
      }
    });
  }

  /**
   * The subscriptions of `keys`: `read` fetches those of the keys given (`keyOf` files each row under its key). A
   * subscription written while it read: every key is read afresh and nothing is kept.
   */
  async get(keys: string[], read: (keys: string[]) => Promise<Sub[]>, keyOf: (s: Sub) => string): Promise<Sub[]> {
    const now = performance.now();
    const missing = keys.filter((k) => !((this.#entries.get(k)?.expiresAt ?? 0) > now));
    if (missing.length > 0) {
      const generation = this.#generation;
      const rows = await read(missing);
      if (generation !== this.#generation) return read(keys);
      for (const k of missing) this.#entries.set(k, { expiresAt: now + SUBS_TTL_MS, subs: rows.filter((r) => keyOf(r) === k) });
      while (this.#entries.size > SUBS_MAX) this.#entries.delete(this.#entries.keys().next().value as string);
    }
    return keys.flatMap((k) => this.#entries.get(k)?.subs ?? []);
  }
}

const cacheOf = perDatabase((db) => new SubscriptionCache(db));

/** As `SubscriptionCache.get` through `db`'s cache; a transaction handle (no cache) reads every time. */
export function cachedSubscriptions(db: Database, keys: string[], read: (keys: string[]) => Promise<Sub[]>, keyOf: (s: Sub) => string): Promise<Sub[]> {
  const cache = cacheOf(db);
  return cache ? cache.get(keys, read, keyOf) : read(keys);
}
