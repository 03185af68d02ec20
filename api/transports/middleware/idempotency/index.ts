/**
 * Idempotency middleware for writes (spec rule 3): requires `Idempotency-Key` (1..256 chars), claims it for the
 * owner (the agent, or the client IP for keyless writes) and replays a stored response. Once the handler answered it
 * decides the claim's outcome (`c.var.idempotentOutcome`): the response to store, or, for 5xx, 429 or 402, the claim
 * forgotten so a retry runs again (after a 402 the client pays and retries with the same key: docs/pm-purchase.md).
 * It writes nothing after the handler: the call-record middleware persists the outcome with the call's record in one
 * unit of work (../call-record/unit-of-work.ts). Fields named in `op.secretFields` (raw API keys) are stored redacted:
 * a secret is shown once, and a replay says so.
 *
 * Every call holding a key is registered in the process's in-flight set while it runs (a duplicate answers 409 at
 * once). A group-committed operation (`op.groupCommit`, the trading writes) writes no claim row: it reads the stored
 * record (batched) and its completed record is inserted with its journal entry by the call-record middleware
 * (api/platform/idempotency/group.ts).
 */
import type { MiddlewareHandler } from "hono";
import type { SqlRunner } from "../../../../relayer/db/client";
import type { Clock } from "../../../../relayer/clock";
import { ApiError } from "../../../platform/errors/api-error";
import { payloadHashOfMembers } from "../../../platform/hashing/canonical-json";
import { beginIdempotent, type IdempotentOutcome, type StoredResponse } from "../../../platform/idempotency/store";
import { keyFlightsOf, lookupIdempotent, markKeyUsed } from "../../../platform/idempotency/group";
import type { AnyOperation } from "../../../registry/types";
import { sealedReplyOf } from "../response-headers";

export interface IdempotencyVariables {
  /** Set once the handler answered a call that claimed its key; persisted by the call-record middleware. */
  idempotentOutcome: IdempotentOutcome;
  /** Set by a call that registered its key in flight: the call-record middleware calls it once the outcome is written. */
  idempotencyRelease: () => void;
  /** What a group-committed call's record needs besides its outcome. */
  idempotentRequest: { operation: string; requestHash: string; at: number };
}

declare module "hono" {
  interface ContextVariableMap extends IdempotencyVariables {}
}

export const REDACTED = "[shown once; not replayed]";
const NOT_STORED = new Set(["x-request-id", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "content-length"]);

/** Null (no middleware) for an operation without a key: reads, and writes whose registry entry asks for none. */
export function idempotency(op: AnyOperation, deps: { db: SqlRunner; clock: Clock }): MiddlewareHandler | null {
  if (op.idempotency !== "required" || op.method === "GET") return null;
  return async function idempotencyMiddleware(c, next) {
    const key = c.req.header("idempotency-key");
    if (key === undefined || key.length === 0) {
      throw new ApiError("IDEMPOTENCY_KEY_REQUIRED", `${op.method} ${op.path} is a write: send an Idempotency-Key header (1..256 characters)`, {
        field: "Idempotency-Key",
      });
    }
    if (key.length > 256) throw new ApiError("INVALID_PAYLOAD", "Idempotency-Key must be 1..256 characters", { field: "Idempotency-Key" });
    const principal = c.get("principal");
    const owner = principal ? `agent:${principal.agentId}` : `ip:${c.get("ip")}`;
    const hash = payloadHashOfMembers(c.get("rawInput") ?? {}, { operation: op.id });
    const flights = keyFlightsOf(deps.db);
    if (flights && !flights.enter(owner, key)) throw inFlight(key);
    const release = () => flights?.leave(owner, key);
    let stored: StoredResponse | null;
    try {
      const now = deps.clock.now();
      if (!op.groupCommit) markKeyUsed(deps.db, owner, key, now); // the group-committed lookup marks its own
      stored = op.groupCommit ? await findStored(deps.db, owner, key, op.id, hash, now) : await beginIdempotent(deps.db, owner, key, op.id, hash, now);
      if (op.groupCommit) c.set("idempotentRequest", { operation: op.id, requestHash: hash, at: now });
    } catch (err) {
      release();
      throw err;
    }
    if (stored) {
      release();
      c.res = new Response(stored.body, { status: stored.status, headers: { ...stored.headers, "Idempotent-Replayed": "true" } });
      return;
    }
    c.set("idempotencyRelease", release);
    await next();
    const status = c.res.status;
    if (status >= 500 || status === 429 || status === 402) {
      c.set("idempotentOutcome", { kind: "forget", owner, key });
      return;
    }
    // The router's own answer is stored from what it was built from; anything else (a problem, or a deprecated
    // operation's answer, which the deprecation middleware gave its headers) is read back from the response.
    const headers: Record<string, string> = {};
    const reply = op.deprecation ? undefined : sealedReplyOf(c.res);
    if (reply) {
      for (const k in reply.own) if (!NOT_STORED.has(k)) headers[k] = reply.own[k]!;
    } else {
      c.res.headers.forEach((v, k) => {
        if (!NOT_STORED.has(k)) headers[k] = v;
      });
    }
    let body = reply ? reply.text : await c.res.clone().text();
    if (op.secretFields?.length && status < 300) body = redact(body, op.secretFields);
    c.set("idempotentOutcome", { kind: "complete", owner, key, response: { status, headers, body } });
  };
}

const inFlight = (key: string) =>
  new ApiError(
    "IDEMPOTENCY_REQUEST_IN_FLIGHT",
    "a request with this Idempotency-Key is still being processed; retry after it completes",
    { idempotencyKey: key },
    { "Retry-After": "1" },
  );

/** The stored answer of a group-committed operation's key (null: run it), or its refusal (same rules as the claim). */
async function findStored(db: SqlRunner, owner: string, key: string, operation: string, requestHash: string, now: number): Promise<StoredResponse | null> {
  const found = await lookupIdempotent(db, owner, key, now);
  if (!found) return null;
  if (found.operation !== operation || found.requestHash !== requestHash) {
    throw new ApiError(
      "IDEMPOTENCY_KEY_REUSED",
      "this Idempotency-Key was already used within 24 h with a different request; use a new key for a new request",
      { idempotencyKey: key },
    );
  }
  if (!found.response) throw inFlight(key);
  return found.response;
}

function redact(body: string, fields: readonly string[]): string {
  const json = JSON.parse(body) as Record<string, unknown>;
  for (const f of fields) if (f in json) json[f] = REDACTED;
  return JSON.stringify(json);
}
