/**
 * Idempotency records in the database (spec rule 3): per owner and key, the operation, the request hash and, once
 * done, the stored status, headers and body. Same owner + key + request within 24 h replays; a different request
 * is refused with IDEMPOTENCY_KEY_REUSED; a duplicate while the first is running gets IDEMPOTENCY_REQUEST_IN_FLIGHT.
 * The primary key makes the claim atomic, so a request never runs twice, across instances too. What becomes of a claim
 * once its call has answered (`IdempotentOutcome`) is written by the call's unit of work
 * (api/transports/middleware/call-record/unit-of-work.ts), together with the call's public record.
 */
import type { SqlRunner } from "../../../relayer/db/client";
import { ApiError } from "../errors/api-error";

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * How long an in-flight claim holds its key. A call that died with the database (a restart mid-call: the claim was
 * written, but its outcome could not be) would otherwise hold the key for 24 h, and every retry would get
 * IDEMPOTENCY_REQUEST_IN_FLIGHT; past the lease a retry takes the claim over and runs (docs/faults.md). Far longer
 * than any call runs.
 */
export const IDEMPOTENCY_IN_FLIGHT_LEASE_MS = 30_000;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Row {
  operation: string;
  request_hash: string;
  state: "in_flight" | "done";
  status: number | null;
  headers: Record<string, string> | string | null;
  body: string | null;
}

/**
 * Claims the key for this request (null: go ahead and run it) or returns the stored response to replay. The claim is
 * one statement: insert, or take over a record whose 24 h ran out (the same as deleting it first, in one round trip).
 */
export async function beginIdempotent(
  db: SqlRunner,
  owner: string,
  key: string,
  operation: string,
  requestHash: string,
  now: number,
): Promise<StoredResponse | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await db.query(
      `INSERT INTO api_idempotency (owner, idem_key, operation, request_hash, state, created_at, expires_at)
       VALUES ($1, $2, $3, $4, 'in_flight', $5, $6)
       ON CONFLICT (owner, idem_key) DO UPDATE SET operation = EXCLUDED.operation, request_hash = EXCLUDED.request_hash, state = 'in_flight',
         status = NULL, headers = NULL, body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
       WHERE api_idempotency.expires_at <= EXCLUDED.created_at
          OR (api_idempotency.state = 'in_flight' AND api_idempotency.created_at <= $7 AND api_idempotency.request_hash = EXCLUDED.request_hash)
       RETURNING owner`,
      [owner, key, operation, requestHash, now, now + IDEMPOTENCY_WINDOW_MS, now - IDEMPOTENCY_IN_FLIGHT_LEASE_MS],
    );
    if (claimed.length > 0) return null;
    const [row] = await db.query<Row>(`SELECT operation, request_hash, state, status, headers, body FROM api_idempotency WHERE owner = $1 AND idem_key = $2`, [
      owner,
      key,
    ]);
    if (!row) continue; // removed (abandoned) between the two statements: claim again
    if (row.operation !== operation || row.request_hash !== requestHash) {
      throw new ApiError(
        "IDEMPOTENCY_KEY_REUSED",
        "this Idempotency-Key was already used within 24 h with a different request; use a new key for a new request",
        { idempotencyKey: key },
      );
    }
    if (row.state === "in_flight") {
      throw new ApiError(
        "IDEMPOTENCY_REQUEST_IN_FLIGHT",
        "a request with this Idempotency-Key is still being processed; retry after it completes",
        { idempotencyKey: key },
        { "Retry-After": "1" },
      );
    }
    const headers = typeof row.headers === "string" ? (JSON.parse(row.headers) as Record<string, string>) : (row.headers ?? {});
    return { status: Number(row.status), headers, body: row.body ?? "" };
  }
  throw new ApiError("IDEMPOTENCY_REQUEST_IN_FLIGHT", "the Idempotency-Key is contended; retry", { idempotencyKey: key }, { "Retry-After": "1" });
}

/** What completing a claim writes: the response to replay. */
export interface IdempotentCompletion {
  owner: string;
  key: string;
  response: StoredResponse;
}

/**
 * What becomes of a claim once its call has answered: `complete` stores the response to replay; `forget` deletes the
 * claim of a call whose answer is worth retrying (5xx, 429, 402), so the retry runs again.
 */
export type IdempotentOutcome = ({ kind: "complete" } & IdempotentCompletion) | { kind: "forget"; owner: string; key: string };

/** The statement that writes `o`, its parameters numbered from `$${first}` (so another statement can carry it as a CTE). */
export function outcomeStatement(o: IdempotentOutcome, first = 1): { sql: string; params: unknown[] } {
  const $ = (i: number) => `$${first + i}`;
  if (o.kind === "forget") {
    return { sql: `DELETE FROM api_idempotency WHERE owner = ${$(0)} AND idem_key = ${$(1)} AND state = 'in_flight'`, params: [o.owner, o.key] };
  }
  return {
    sql: `UPDATE api_idempotency SET state = 'done', status = ${$(2)}, headers = ${$(3)}::jsonb, body = ${$(4)} WHERE owner = ${$(0)} AND idem_key = ${$(1)}`,
    params: [o.owner, o.key, o.response.status, JSON.stringify(o.response.headers), o.response.body],
  };
}

/** Writes `o` alone. */
export async function settleIdempotent(db: SqlRunner, o: IdempotentOutcome): Promise<void> {
  const { sql, params } = outcomeStatement(o);
  await db.query(sql, params);
}

export async function completeIdempotent(db: SqlRunner, owner: string, key: string, response: StoredResponse): Promise<void> {
  await settleIdempotent(db, { kind: "complete", owner, key, response });
}

/** Forgets a claim whose request failed in a way worth retrying (5xx, 429, 402). */
export async function abandonIdempotent(db: SqlRunner, owner: string, key: string): Promise<void> {
  await settleIdempotent(db, { kind: "forget", owner, key });
}
