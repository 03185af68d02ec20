/**
 * The public record (spec: "Every call is kept on a public record"): each call made with a valid key is stored with
 * agent, operation, time, status, idempotency key and the SHA-256 of its request (canonical JSON of params, query and
 * body). Read it at GET /agents/{agentId}/calls.
 */
import type { MiddlewareHandler } from "hono";
import type { SqlRunner } from "../../../relayer/db/client";
import type { Clock } from "../../../relayer/clock";
import { payloadHash } from "../../hashing/canonical-json";
import { internalCallOf } from "../../rest/client";
import type { AnyOperation } from "../../registry/types";

export function callRecord(op: AnyOperation, deps: { db: SqlRunner; clock: Clock }): MiddlewareHandler {
  return async function callRecordMiddleware(c, next) {
    await next();
    const principal = c.var.principal;
    if (!principal) return;
    const raw = c.var.rawInput;
    try {
      await deps.db.query(
        `INSERT INTO api_call_records (agent_id, operation, method, path, surface, status, idempotency_key, body_hash, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [principal.agentId, op.id, op.method, c.req.path, internalCallOf(c)?.surface ?? "rest", c.res.status, c.var.idempotencyKey ?? null, raw ? payloadHash(raw) : null, deps.clock.now()],
      );
    } catch (err) {
      c.var.log.error({ err, operation: op.id }, "call record not written");
    }
  };
}
