/**
 * The REST adapter: one Hono route per registry operation, each with the same middleware chain
 *   call-record -> auth -> rate-limit -> validate -> idempotency -> [deprecation] -> handler
 * (global before them: request-id -> ip-limit -> body-limit -> svc-version). The handler's answer is checked against the
 * operation's response schema, so a response can never drift from /openapi.json. Once the response is decided, the
 * call-record middleware persists the call's outcome (record and idempotent answer) in one unit of work
 * (../middleware/call-record/unit-of-work.ts; docs/api.md "How a request flows").
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import type { ServiceContext } from "../../context";
import type { Services } from "../../services";
import { apiBase } from "../../domain/auth/links";
import { auth } from "../middleware/auth";
import { callRecord } from "../middleware/call-record";
import { deprecation } from "../middleware/deprecation";
import { idempotency } from "../middleware/idempotency";
import { rateLimit } from "../middleware/rate-limit";
import { sealedResponse } from "../middleware/response-headers";
import { validate } from "../middleware/validate";
import { fullPath, honoPath, type Registry } from "../../registry/registry";
import { Reply, requiresKey, type AnyOperation, type CallContext } from "../../registry/types";
import { internalCallOf } from "../middleware/caller";

/** The origin clients use: PUBLIC_URL when set, else the request's own origin. */
export function originOf(c: Context, publicUrl: string | undefined): string {
  return originOfUrl(publicUrl ?? c.req.url);
}

// Parsing a whole URL per request only to read its origin is measurable; the origin is a function of the text up to
// the path, so each distinct prefix is parsed once.
const origins = new Map<string, string>();
function originOfUrl(url: string): string {
  const slash = url.indexOf("/", url.indexOf("//") + 2);
  const prefix = slash < 0 ? url : url.slice(0, slash);
  let origin = origins.get(prefix);
  if (origin === undefined) {
    origin = new URL(url).origin;
    if (origins.size < 1_000) origins.set(prefix, origin);
  }
  return origin;
}

export function mountOperations(app: Hono, ctx: ServiceContext, services: Services, registry: Registry): void {
  const deps = { db: ctx.db, clock: ctx.clock };
  for (const op of registry.operations) {
    // Middlewares with nothing to do for an operation (no key, not deprecated) are not mounted for it.
    const chain = [
      callRecord(op, deps),
      auth(op, deps),
      rateLimit(op, { windows: services.windows, clock: ctx.clock, config: ctx.config }),
      validate(op),
      idempotency(op, deps),
      deprecation(op.deprecation, (c) => apiBase(originOf(c, ctx.config.PUBLIC_URL))),
      operationHandler(op, ctx, services, registry),
    ].filter((m): m is MiddlewareHandler => m !== null);
    app.on([op.method], [honoPath(fullPath(op))], ...(chain as [MiddlewareHandler]));
  }
}

function operationHandler(op: AnyOperation, ctx: ServiceContext, services: Services, registry: Registry): MiddlewareHandler {
  // Frozen bodies that passed the check: a handler that answers with a shared, frozen view (a cached market's detail,
  // api/domain/markets/market-view.ts) is checked once, not on every request; any other body is checked every time.
  const checkedBodies = new WeakSet<object>();
  // ... and serialized once: a shared body's JSON text is kept as long as the body itself is.
  const serialized = new WeakMap<object, string>();
  const keyOnly = requiresKey(op.permission);
  return async function handle(c: Context): Promise<Response> {
    const principal = c.get("principal");
    // The auth middleware refuses a keyless call of a key permission before this point, which is what lets the
    // registry type `call.principal` as non-null for those operations.
    if (keyOnly && !principal) throw new Error(`${op.id} reached its handler without a key`);
    const call: CallContext = {
      principal,
      requestId: c.get("requestId"),
      ip: c.get("ip"),
      version: c.get("apiVersion") ?? "",
      surface: internalCallOf(c)?.surface ?? "rest",
      origin: originOf(c, ctx.config.PUBLIC_URL),
      services,
      registry,
      header: (name) => c.req.header(name),
      unit: c.get("commitUnit") ?? null,
    };
    const out = await op.handler(ctx, c.get("input"), call);
    const reply = out instanceof Reply ? out : new Reply(op.status ?? 200, out);
    const body = reply.body;
    const shared = typeof body === "object" && body !== null && Object.isFrozen(body);
    if (!shared || !checkedBodies.has(body)) {
      const checked = op.response.safeParse(body);
      if (!checked.success) {
        throw new Error(
          `response of ${op.id} does not match its schema: ${checked.error.issues.map((i: { path: PropertyKey[]; message: string }) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
        );
      }
      if (shared) checkedBodies.add(body);
    }
    let text: string;
    if (op.responseContentType) text = body as string;
    else if (shared) {
      const cached = serialized.get(body);
      text = cached ?? JSON.stringify(body);
      if (cached === undefined) serialized.set(body, text);
    } else text = JSON.stringify(body);
    const own: Record<string, string> = { "content-type": op.responseContentType ?? "application/json" };
    for (const k in reply.headers) own[k.toLowerCase()] = reply.headers[k]!;
    return sealedResponse(c, reply.status, text, own);
  };
}
