/**
 * The public record (spec: "Every call is kept on a public record") and the call's post-response unit of work. The
 * outermost middleware of every operation: once everything inside it has decided the response, it builds the call's
 * outcome (its record row, for a call made with a valid key: agent, operation, time, status, idempotency key and the
 * SHA-256 of its request, canonical JSON of params, query and body; and the Idempotency-Key outcome the idempotency
 * middleware decided, `c.var.idempotentOutcome`) and persists both through `persistCallOutcome` (./unit-of-work.ts).
 * Read the record at GET /agents/{agentId}/calls.
 *
 * A group-committed operation (`op.groupCommit`, the trading writes) runs inside a commit unit instead
 * (./group-commit.ts): its journal entries, completed Idempotency-Key record and call record commit in one
 * transaction shared with the other calls of the tick, and the answer leaves only after that commit.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { Database } from "../../../../relayer/db/client";
import type { Clock } from "../../../../relayer/clock";
import { payloadHashOfMembers } from "../../../platform/hashing/canonical-json";
import { internalCallOf } from "../caller";
import type { AnyOperation } from "../../../registry/types";
import { persistCallOutcome, type CallRecordRow } from "./unit-of-work";
import { recordInTick, runGroupCommitted } from "./group-commit";

/**
 * The request's path as the client sent it, still percent-encoded. `c.req.path` is decoded, so a `%00` in it became a
 * NUL, which the record's text column cannot hold: the refusal of such a path (400, ../validate) then failed to commit
 * and answered 503 (found by the schema fuzz over MCP, whose tools put their ids in the path).
 */
function pathAsSent(url: string): string {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}

export function callRecord(op: AnyOperation, deps: { db: Database; clock: Clock }): MiddlewareHandler {
  const recordOf = (c: Context): CallRecordRow | null => {
    const principal = c.get("principal");
    const raw = c.get("rawInput");
    return principal
      ? {
          agentId: principal.agentId,
          operation: op.id,
          method: op.method,
          path: pathAsSent(c.req.url),
          surface: internalCallOf(c)?.surface ?? "rest",
          status: c.res.status,
          idempotencyKey: c.req.header("idempotency-key") ?? null,
          bodyHash: raw ? payloadHashOfMembers(raw) : null, // the Idempotency-Key hash made the members canonical already
          at: deps.clock.now(),
        }
      : null;
  };
  if (op.groupCommit) return (c, next) => runGroupCommitted(c, next, deps.db, recordOf);
  return async function callRecordMiddleware(c, next) {
    try {
      await next();
      const record = recordOf(c);
      const idempotency = c.get("idempotentOutcome") ?? null;
      // A keyless read has nothing to keep; a record alone (a read) is one row of the next commit tick, not waited for.
      if (record && !idempotency) recordInTick(deps.db, record, c);
      else if (record || idempotency) await persistCallOutcome(deps.db, { record, idempotency }, c.get("log")?.());
    } finally {
      (c.get("idempotencyRelease") as (() => void) | undefined)?.();
    }
  };
}
