/**
 * Idempotency of the group-committed trading writes (docs/api-performance.md "Group commit"). Such a call writes no
 * claim row of its own: its Idempotency-Key record (the answer to replay) is inserted in the same transaction as its
 * journal entry and call record, by the database's committer (relayer/db/group-commit.ts). So a crash loses both or
 * keeps both: an acknowledged order always replays, and an unacknowledged one left nothing a retry would double.
 *
 * What the claim row did before is done here:
 *   - a duplicate in flight: every call that uses a key registers it in this process's in-flight set while it runs
 *     (`KeyFlights`, every idempotent operation, so a trading write and any other write with the same key exclude
 *     each other); the exchange, hence every trading write, lives in one process (docs/journal.md);
 *   - a stored answer, or the key used for another request: one read, batched with the reads of the calls arriving
 *     meanwhile (`lookupIdempotent`: one statement per round, the next round starting when the previous returned).
 *     A key this process never saw, and that was not stored when it first looked, is known to be new without that
 *     read (`UsedKeys`): every idempotent call reaches the process that holds the exchange (docs/scale-out.md).
 */
import type { Database, SqlRunner } from "../../../relayer/db/client";
import { rowSink } from "../../../relayer/db/group-commit";
import { perDatabase } from "../../../relayer/db/per-database";
import { KeyFilter } from "./key-filter";
import { IDEMPOTENCY_WINDOW_MS, type StoredResponse } from "./store";

/** Keys (owner + key) of the calls running in this process. */
export class KeyFlights {
  readonly #running = new Set<string>();

  /** Registers the key; false when a call with it is already running. */
  enter(owner: string, key: string): boolean {
    const id = `${owner}\u0000${key}`;
    if (this.#running.has(id)) return false;
    this.#running.add(id);
    return true;
  }

  leave(owner: string, key: string): void {
    this.#running.delete(`${owner}\u0000${key}`);
  }
}

export const keyFlightsOf = perDatabase(() => new KeyFlights());

/** A stored record as the lookup finds it. */
export interface FoundRecord {
  operation: string;
  requestHash: string;
  state: "in_flight" | "done";
  response: StoredResponse | null;
}

interface Waiting {
  owner: string;
  key: string;
  now: number;
  resolve: (r: FoundRecord | null) => void;
  reject: (err: unknown) => void;
}

const LOOKUP = `SELECT x.i, t.operation, t.request_hash, t.state, t.status, t.headers, t.body, t.expires_at::text AS expires_at
  FROM json_to_recordset($1::text::json) AS x(i integer, owner text, idem_key text)
  JOIN api_idempotency t ON t.owner = x.owner AND t.idem_key = x.idem_key`;

interface LookupRow {
  i: number;
  operation: string;
  request_hash: string;
  state: "in_flight" | "done";
  status: number | null;
  headers: Record<string, string> | string | null;
  body: string | null;
  expires_at: string;
}

const MAX_PER_LOOKUP = 2_000;

class Lookups {
  #queue: Waiting[] = [];
  #running = false;

  constructor(private readonly db: SqlRunner) {}

  find(owner: string, key: string, now: number): Promise<FoundRecord | null> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ owner, key, now, resolve, reject });
      if (!this.#running) {
        this.#running = true;
        queueMicrotask(() => void this.#run());
      }
    });
  }

  async #run(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_PER_LOOKUP);
      try {
        const rows = await this.db.query<LookupRow>(LOOKUP, [JSON.stringify(batch.map((w, i) => ({ i, owner: w.owner, idem_key: w.key })))]);
        const found = new Map(rows.map((r) => [Number(r.i), r]));
        batch.forEach((w, i) => {
          const r = found.get(i);
          // A record whose 24 h ran out is as good as absent: the group commit's insert takes it over.
          if (!r || Number(r.expires_at) <= w.now) return w.resolve(null);
          const headers = typeof r.headers === "string" ? (JSON.parse(r.headers) as Record<string, string>) : (r.headers ?? {});
          w.resolve({
            operation: r.operation,
            requestHash: r.request_hash,
            state: r.state,
            response: r.state === "done" ? { status: Number(r.status), headers, body: r.body ?? "" } : null,
          });
        });
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.#running = false;
  }
}

/**
 * Every key of the idempotency table that may be live, in Bloom filters (./key-filter.ts): those stored when it was
 * first needed and every key a call used since (`markKeyUsed`, before its record is written). A key the filter has
 * certainly not seen was never stored, so its lookup needs no read: on PGlite that read waited behind the commit ticks
 * on the database's one thread and was half of an order's latency; on Postgres it was a round trip and a socket write
 * of the service's thread per lookup round (docs/api-performance.md). A false "maybe" only costs the read.
 *
 * Exact because the table has one writer at a time: the process that holds the exchange. PGlite is opened by one
 * process; on Postgres only the leader runs the service and followers forward every call to it (docs/scale-out.md),
 * and the stored keys are read on the first trading call, after this process took the exchange. A previous leader's
 * trading write that lands later is fenced by the journal's sequence (its tick, records included, or ours fails).
 *
 * The stored keys are read in pages in the background; until the last page is in, every lookup reads, as without
 * the filter. Records live 24 h, so keys are kept in two generations of a window each: a key stays at least a window.
 */
class UsedKeys {
  #current = new KeyFilter();
  #previous: KeyFilter | null = null;
  #since: number | null = null;
  #stored: "unread" | "reading" | "read" = "unread";

  constructor(private readonly db: Database) {}

  /** Whether the stored keys are all in; the first call starts reading them (a failed read is tried again later). */
  ready(now: number): boolean {
    if (this.#stored === "unread") {
      this.#stored = "reading";
      this.#load(now).then(
        () => {
          this.#stored = "read";
        },
        () => {
          this.#stored = "unread"; // lookups go on reading; the next one starts the load again
        },
      );
    }
    return this.#stored === "read";
  }

  /** Whether owner + key may have been stored (false: certainly not). */
  mayHave(owner: string, key: string, now: number): boolean {
    this.#age(now);
    return this.#current.mayHave(owner, key) || (this.#previous?.mayHave(owner, key) ?? false);
  }

  add(owner: string, key: string, now: number): void {
    this.#age(now);
    this.#current.add(owner, key);
  }

  /** Pages of the primary key, so memory stays bounded whatever the table holds. */
  async #load(now: number): Promise<void> {
    let after: KeyRow | null = null;
    for (;;) {
      const page: KeyRow[] = await this.db.query<KeyRow>(
        after
          ? `SELECT owner, idem_key FROM api_idempotency WHERE expires_at > $1 AND (owner, idem_key) > ($2, $3) ORDER BY owner, idem_key LIMIT ${LOAD_PAGE}`
          : `SELECT owner, idem_key FROM api_idempotency WHERE expires_at > $1 ORDER BY owner, idem_key LIMIT ${LOAD_PAGE}`,
        after ? [now, after.owner, after.idem_key] : [now],
      );
      for (const r of page) this.add(r.owner, r.idem_key, now);
      if (page.length < LOAD_PAGE) return;
      after = page[page.length - 1]!;
    }
  }

  /** Moves to the next generation once a window passed (both, after two: every record of theirs has expired). */
  #age(now: number): void {
    if (this.#since === null) this.#since = now;
    const passed = now - this.#since;
    if (passed < IDEMPOTENCY_WINDOW_MS) return;
    this.#previous = passed < 2 * IDEMPOTENCY_WINDOW_MS ? this.#current : null;
    this.#current = new KeyFilter();
    this.#since = now;
  }
}

const LOAD_PAGE = 10_000;

interface KeyRow {
  owner: string;
  idem_key: string;
}

const lookupsOf = perDatabase((db: Database) => ({ lookups: new Lookups(db), used: new UsedKeys(db) }));

/** Notes that a call is about to use owner + key (every idempotent call, before any record of it is written). */
export function markKeyUsed(db: SqlRunner, owner: string, key: string, now: number): void {
  lookupsOf(db)?.used.add(owner, key, now);
}

/** The record stored for owner + key (null when none or expired), read in a batch with concurrent lookups. */
export async function lookupIdempotent(db: SqlRunner, owner: string, key: string, now: number): Promise<FoundRecord | null> {
  const of = lookupsOf(db);
  if (!of) throw new Error("idempotency lookups need a database handle");
  // Checked and marked in one synchronous step: a concurrent call with the same key is refused as in flight before.
  const skip = of.used.ready(now) && !of.used.mayHave(owner, key, now);
  of.used.add(owner, key, now);
  if (skip) return null;
  return of.lookups.find(owner, key, now);
}

/**
 * The completed record of a group-committed call: inserted done, taking over a record whose 24 h ran out; a live
 * record with the key (another instance's claim) is left alone: the tick must not fail for it.
 */
export const IDEMPOTENCY_SINK = rowSink(
  "api_idempotency",
  `INSERT INTO api_idempotency (owner, idem_key, operation, request_hash, state, status, headers, body, created_at, expires_at)
   SELECT owner, idem_key, operation, request_hash, 'done', status, headers, body, created_at, expires_at
     FROM json_to_recordset($1::text::json)
       AS x(owner text, idem_key text, operation text, request_hash text, status integer, headers jsonb, body text, created_at bigint, expires_at bigint)
   ON CONFLICT (owner, idem_key) DO UPDATE SET operation = EXCLUDED.operation, request_hash = EXCLUDED.request_hash, state = 'done',
     status = EXCLUDED.status, headers = EXCLUDED.headers, body = EXCLUDED.body, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
   WHERE api_idempotency.expires_at <= EXCLUDED.created_at`,
);

/** The row IDEMPOTENCY_SINK takes for one completed call. */
export function completedRow(r: { owner: string; key: string; operation: string; requestHash: string; response: StoredResponse; now: number }): string {
  return JSON.stringify({
    owner: r.owner,
    idem_key: r.key,
    operation: r.operation,
    request_hash: r.requestHash,
    status: r.response.status,
    headers: r.response.headers,
    body: r.response.body,
    created_at: r.now,
    expires_at: r.now + IDEMPOTENCY_WINDOW_MS,
  });
}
