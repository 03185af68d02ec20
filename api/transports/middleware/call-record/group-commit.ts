/**
 * The call-record middleware of a group-committed operation (docs/api-performance.md "Group commit"). The call gets
 * its own commit unit (relayer/db/group-commit.ts), `c.var.commitUnit`, which the handler reads as `call.unit` and
 * hands to what writes for it (the exchange adds the call's journal entries to it); once the response is decided this
 * adds the completed Idempotency-Key record (api/platform/idempotency/group.ts) and the public record, seals the unit
 * and waits for the tick that commits it. Only then does the answer leave. A tick that fails turns the answer into
 * 503 SERVICE_UNAVAILABLE: nothing of the call was stored, and a retry with the same key runs it again (the exchange
 * rebuilt from the journal, which does not hold it either).
 */
import type { Context, Next } from "hono";
import type { Database } from "../../../../relayer/db/client";
import { CommitUnit, groupCommitterOf, rowSink } from "../../../../relayer/db/group-commit";
import { ApiError } from "../../../platform/errors/api-error";
import { problemResponse } from "../../../platform/errors/problem";
import { completedRow, IDEMPOTENCY_SINK } from "../../../platform/idempotency/group";
import { persistCallOutcome, type CallRecordRow } from "./unit-of-work";

export interface CommitUnitVariables {
  /** The open commit unit of a group-committed call (`op.groupCommit`); unset for every other call. */
  commitUnit: CommitUnit;
}

declare module "hono" {
  interface ContextVariableMap extends CommitUnitVariables {}
}

export const CALL_RECORDS_SINK = rowSink(
  "api_call_records",
  `INSERT INTO api_call_records (agent_id, operation, method, path, surface, status, idempotency_key, body_hash, at)
   SELECT agent_id, operation, method, path, surface, status, idempotency_key, body_hash, at FROM json_to_recordset($1::text::json)
     AS x(agent_id uuid, operation text, method text, path text, surface text, status integer, idempotency_key text, body_hash text, at bigint)`,
);

const recordRow = (r: CallRecordRow): string =>
  JSON.stringify({
    agent_id: r.agentId,
    operation: r.operation,
    method: r.method,
    path: r.path,
    surface: r.surface,
    status: r.status,
    idempotency_key: r.idempotencyKey,
    body_hash: r.bodyHash,
    at: r.at,
  });

/**
 * A call's public record alone (a read, or a refusal that claimed no key) as one row of the next commit tick, shared
 * with the other calls in flight instead of an INSERT of its own. The answer does not wait for it: such a call changed
 * nothing, so a crash before the tick loses only its record, and waiting for a tick (behind whatever the tick writes)
 * was most of a read's latency under write load. The record's reader waits for it instead (GET /agents/{agentId}/calls,
 * `GroupCommitter.sealedSettled`), so an agent sees every call it was answered. A record that cannot be written is
 * logged and never fails the call.
 */
export function recordInTick(db: Database, record: CallRecordRow, c: Context): void {
  const log = c.get("log");
  const committer = groupCommitterOf(db);
  if (!committer) {
    void persistCallOutcome(db, { record, idempotency: null }, log?.());
    return;
  }
  const unit = new CommitUnit();
  unit.add(committer, CALL_RECORDS_SINK, recordRow(record));
  unit.seal().catch((err: unknown) => log?.().error({ err, operation: record.operation }, "call record not written"));
}

export async function runGroupCommitted(c: Context, next: Next, db: Database, recordOf: (c: Context) => CallRecordRow | null): Promise<void> {
  const committer = groupCommitterOf(db);
  if (!committer) throw new Error("group commit needs a database handle");
  const unit = new CommitUnit();
  try {
    c.set("commitUnit", unit);
    await next();
    const outcome = c.get("idempotentOutcome");
    const request = c.get("idempotentRequest");
    // A forgotten claim (5xx, 429, 402) leaves no record: a retry runs again.
    if (outcome?.kind === "complete" && request) {
      unit.add(
        committer,
        IDEMPOTENCY_SINK,
        completedRow({
          owner: outcome.owner,
          key: outcome.key,
          operation: request.operation,
          requestHash: request.requestHash,
          response: outcome.response,
          now: request.at,
        }),
      );
    }
    const record = recordOf(c);
    if (record) unit.add(committer, CALL_RECORDS_SINK, recordRow(record));
  } finally {
    try {
      await unit.seal();
    } catch (err) {
      c.get("log")?.().error({ err }, "group commit failed: the call is answered 503 and left no record");
      c.res = problemResponse(
        new ApiError("SERVICE_UNAVAILABLE", "the write could not be made durable; retry with the same Idempotency-Key", {}, { "Retry-After": "1" }),
        c.req.url,
      );
    } finally {
      (c.get("idempotencyRelease") as (() => void) | undefined)?.();
    }
  }
}
