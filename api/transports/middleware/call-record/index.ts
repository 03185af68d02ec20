/**
 * The public record (spec: "Every call is kept on a public record"): each call made with a valid key is stored with
 * agent, operation, time, status, idempotency key and the SHA-256 of its request (canonical JSON of params, query and
 * body). Read it at GET /agents/{agentId}/calls.
 *
 * One round trip per authenticated write: the idempotency middleware (inside this one) hands its completion over
 * (`c.var.deferIdempotentCompletion`) and the record's INSERT carries it as a data-modifying CTE. If that statement
 * fails, the completion is written alone (its failure fails the request, as before) and then the record alone.
 */
import type { MiddlewareHandler } from "hono";
import type { SqlRunner } from "../../../../relayer/db/client";
import type { Clock } from "../../../../relayer/clock";
import { payloadHash } from "../../../platform/hashing/canonical-json";
import { completeIdempotent, completionStatement, type IdempotentCompletion } from "../../../platform/idempotency/store";
import { internalCallOf } from "../../rest/client";
import type { AnyOperation } from "../../../registry/types";

export interface CallRecordVariables {
  /** Set by this middleware: takes over the idempotency completion of an authenticated call (false: not taken). */
  deferIdempotentCompletion: (completion: IdempotentCompletion) => boolean;
}

declare module "hono" {
  interface ContextVariableMap extends CallRecordVariables {}
}

const INSERT_RECORD = `INSERT INTO api_call_records (agent_id, operation, method, path, surface, status, idempotency_key, body_hash, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

export function callRecord(op: AnyOperation, deps: { db: SqlRunner; clock: Clock }): MiddlewareHandler {
  const withCompletion = (() => {
    const { sql } = completionStatement({ owner: "", key: "", response: { status: 0, headers: {}, body: "" } }, 10);
    return `WITH idempotent_done AS (${sql} RETURNING 1) ${INSERT_RECORD}`;
  })();
  return async function callRecordMiddleware(c, next) {
    let completion: IdempotentCompletion | null = null;
    // Taken only for calls this middleware will record (a principal is known by the time the completion is handed).
    c.set("deferIdempotentCompletion", (done) => {
      if (!c.get("principal") || completion) return false;
      completion = done;
      return true;
    });
    await next();
    const principal = c.get("principal");
    const pending = completion as IdempotentCompletion | null;
    if (!principal) {
      if (pending) await completeIdempotent(deps.db, pending.owner, pending.key, pending.response);
      return;
    }
    const raw = c.get("rawInput");
    const record = [principal.agentId, op.id, op.method, c.req.path, internalCallOf(c)?.surface ?? "rest", c.res.status, c.get("idempotencyKey") ?? null, raw ? payloadHash(raw) : null, deps.clock.now()];
    if (pending) {
      try {
        await deps.db.query(withCompletion, [...record, ...completionStatement(pending, 10).params]);
        return;
      } catch (err) {
        c.get("log").error({ err, operation: op.id }, "call record with idempotent completion not written; writing them apart");
      }
      try {
        await completeIdempotent(deps.db, pending.owner, pending.key, pending.response);
      } catch (err) {
        // As when the completion failed on its own: the call fails (500 from the error handler), and is recorded so.
        record[5] = 500;
        await writeRecord(deps.db, record, c, op);
        throw err;
      }
    }
    await writeRecord(deps.db, record, c, op);
  };
}

async function writeRecord(db: SqlRunner, record: unknown[], c: Parameters<MiddlewareHandler>[0], op: AnyOperation): Promise<void> {
  try {
    await db.query(INSERT_RECORD, record);
  } catch (err) {
    c.get("log").error({ err, operation: op.id }, "call record not written");
  }
}
