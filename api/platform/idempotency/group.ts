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
 */
import type { Database, SqlRunner } from "../../../relayer/db/client";
import { rowSink } from "../../../relayer/db/group-commit";
import { perDatabase } from "../../../relayer/db/written-tables";
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

const lookupsOf = perDatabase((db: Database) => new Lookups(db));

/** The record stored for owner + key (null when none or expired), read in a batch with concurrent lookups. */
export function lookupIdempotent(db: SqlRunner, owner: string, key: string, now: number): Promise<FoundRecord | null> {
  const lookups = lookupsOf(db);
  if (!lookups) throw new Error("idempotency lookups need a database handle");
  return lookups.find(owner, key, now);
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
