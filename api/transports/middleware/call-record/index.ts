/**
 * The public record (spec: "Every call is kept on a public record") and the call's post-response unit of work. The
 * outermost middleware of every operation: once everything inside it has decided the response, it builds the call's
 * outcome (its record row, for a call made with a valid key: agent, operation, time, status, idempotency key and the
 * SHA-256 of its request, canonical JSON of params, query and body; and the Idempotency-Key outcome the idempotency
 * middleware decided, `c.var.idempotentOutcome`) and persists both through `persistCallOutcome` (./unit-of-work.ts).
 * Read the record at GET /agents/{agentId}/calls.
 */
import type { MiddlewareHandler } from "hono";
import type { SqlRunner } from "../../../../relayer/db/client";
import type { Clock } from "../../../../relayer/clock";
import { payloadHash } from "../../../platform/hashing/canonical-json";
import { internalCallOf } from "../../rest/client";
import type { AnyOperation } from "../../../registry/types";
import { persistCallOutcome, type CallRecordRow } from "./unit-of-work";

export function callRecord(op: AnyOperation, deps: { db: SqlRunner; clock: Clock }): MiddlewareHandler {
  return async function callRecordMiddleware(c, next) {
    await next();
    const principal = c.get("principal");
    const raw = c.get("rawInput");
    const record: CallRecordRow | null = principal
      ? {
          agentId: principal.agentId,
          operation: op.id,
          method: op.method,
          path: c.req.path,
          surface: internalCallOf(c)?.surface ?? "rest",
          status: c.res.status,
          idempotencyKey: c.get("idempotencyKey") ?? null,
          bodyHash: raw ? payloadHash(raw) : null,
          at: deps.clock.now(),
        }
      : null;
    await persistCallOutcome(deps.db, { record, idempotency: c.get("idempotentOutcome") ?? null }, c.get("log"));
  };
}
