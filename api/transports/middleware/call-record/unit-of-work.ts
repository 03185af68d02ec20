/**
 * The post-response unit of work of one API call: once the response is decided (status, headers and bytes are final
 * and never change here), the call leaves two things in the database, written by `persistCallOutcome` and nowhere else:
 *   - its public record (`api_call_records`), for calls made with a valid key;
 *   - what becomes of its Idempotency-Key claim (`api_idempotency`): the response to replay, or the claim forgotten.
 *
 * Order and failures:
 *   1. Both in one statement, the claim's write as a data-modifying CTE of the record's INSERT: one implicit
 *      transaction on PGlite and Postgres alike (both rows or neither) and one round trip. A call with only one of
 *      the two writes that one alone.
 *   2. If that statement fails, the claim's write alone: it decides what a retry gets, so its failure fails the call
 *      (the error propagates; the error handler answers 500) after the record is written with status 500.
 *   3. Then the record alone. A record that cannot be written is logged and never fails the call.
 * The input is plain data, so a later change can batch many calls' outcomes into one commit.
 */
import type { Logger } from "pino";
import type { Surface } from "../../../registry/types";
import type { SqlRunner } from "../../../../relayer/db/client";
import { outcomeStatement, settleIdempotent, type IdempotentOutcome } from "../../../platform/idempotency/store";

/** One row of the public record (GET /agents/{agentId}/calls). */
export interface CallRecordRow {
  agentId: string;
  /** The operation id. */
  operation: string;
  method: string;
  path: string;
  surface: Surface;
  /** The answered status. */
  status: number;
  idempotencyKey: string | null;
  /** SHA-256 of the canonical JSON of params, query and body; null when the input was never read. */
  bodyHash: string | null;
  /** Epoch ms, from the service clock. */
  at: number;
}

/** What an answered call leaves behind. */
export interface CallOutcome {
  /** The public record's row; null for a call without a valid key, which is on no record. */
  record: CallRecordRow | null;
  /** The claim's outcome; null when the call made no claim (reads, exempt operations, replays, refusals before it). */
  idempotency: IdempotentOutcome | null;
}

const INSERT_RECORD = `INSERT INTO api_call_records (agent_id, operation, method, path, surface, status, idempotency_key, body_hash, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;
const RECORD_PARAMS = 9;

const recordParams = (r: CallRecordRow): unknown[] => [r.agentId, r.operation, r.method, r.path, r.surface, r.status, r.idempotencyKey, r.bodyHash, r.at];

/** The record's INSERT carrying the claim's write; the texts are fixed per outcome kind (prepared once). */
function combined(record: CallRecordRow, idempotency: IdempotentOutcome): { sql: string; params: unknown[] } {
  const claim = outcomeStatement(idempotency, RECORD_PARAMS + 1);
  return { sql: `WITH idempotent AS (${claim.sql} RETURNING 1) ${INSERT_RECORD}`, params: [...recordParams(record), ...claim.params] };
}

/** Persists one call's outcome (see the order and failure rules above). Throws only when the claim's write failed. */
export async function persistCallOutcome(db: SqlRunner, outcome: CallOutcome, log: Logger): Promise<void> {
  const { record, idempotency } = outcome;
  if (record && idempotency) {
    const { sql, params } = combined(record, idempotency);
    try {
      await db.query(sql, params);
      return;
    } catch (err) {
      log.error({ err, operation: record.operation }, "call record with idempotent outcome not written; writing them apart");
    }
  }
  if (idempotency) {
    try {
      await settleIdempotent(db, idempotency);
    } catch (err) {
      if (record) await writeRecord(db, { ...record, status: 500 }, log);
      throw err;
    }
  }
  if (record) await writeRecord(db, record, log);
}

async function writeRecord(db: SqlRunner, record: CallRecordRow, log: Logger): Promise<void> {
  try {
    await db.query(INSERT_RECORD, recordParams(record));
  } catch (err) {
    log.error({ err, operation: record.operation }, "call record not written");
  }
}
