/**
 * The Hono application: global middleware (security headers, request id, per-IP limit, Svc-Version), the registry's operations, the
 * documents derived from it, and the error policy every route shares: RFC 9457 problems for unknown routes (404),
 * wrong methods (405; a browser asking for an unknown page gets the site's HTML 404), thrown ApiErrors, and internal errors (logged with the request id, never leaking a stack).
 */
import { Hono } from "hono";
import { ApiError } from "./platform/errors/api-error";
import { problemResponse } from "./platform/errors/problem";
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from "./platform/errors/database-unavailable";
import type { ServiceContext } from "./context";
import type { OpenServices } from "./open-services";
import { mountLedgerProof } from "./domain/ledger/proof-route";
import { requestId } from "./transports/middleware/request-id";
import { ipLimit } from "./transports/middleware/ip-limit";
import { svcVersion } from "./transports/middleware/svc-version";
import { responseHeaders } from "./transports/middleware/response-headers";
import { requestSizeLimit } from "./transports/middleware/body-limit";
import { mountOperations } from "./transports/rest/router";
import { RouteCache } from "./transports/rest/route-cache";
import { Registry } from "./registry/registry";
import { API_BASE_PATH } from "./platform/versioning/versions";
import { OPERATIONS } from "./operations";
import { mountOpenApiDocuments } from "./transports/openapi/routes";
import { MCP_PATH, mountMcp } from "./transports/mcp/server";
import { mountAgentCard } from "./transports/agent-card/route";
import { createMetrics, mountMetrics } from "./transports/metrics/metrics";
import { mountSse } from "./transports/realtime/sse";
import { mountAdmin } from "./transports/admin/mount";
import { mountSite, siteNotFound, wantsSitePage } from "./transports/site/mount";

export interface AppParts {
  app: Hono;
  registry: Registry;
}

/** `opened`: the services the operations see, and the realtime hub the SSE streams read (a running service is one). */
export function createApp(ctx: ServiceContext, opened: Pick<OpenServices, "services" | "delivery">, registry = new Registry(OPERATIONS)): AppParts {
  const { services, delivery } = opened;
  const app = new Hono({ router: new RouteCache() });
  const metrics = createMetrics(registry);
  app.use("*", metrics.middleware);
  app.use("*", responseHeaders());
  app.use("*", requestId({ log: ctx.log, now: () => ctx.clock.now() }));
  app.use("*", ipLimit({ windows: services.windows, clock: ctx.clock, perMinute: ctx.config.RATE_LIMIT_IP_PER_MINUTE, trustProxy: ctx.config.TRUST_PROXY }));
  app.use("*", requestSizeLimit(MCP_PATH));
  app.use(`${API_BASE_PATH}/*`, svcVersion());

  mountOperations(app, ctx, services, registry);
  mountSse(app, ctx, delivery.hub);
  mountLedgerProof(app, services.publishedLedger);
  // Documents and surfaces derived from the registry (openapi, docs, change feed, MCP, agent card, metrics).
  mountOpenApiDocuments(app, ctx, registry);
  mountMcp(app, ctx, registry, (method, tool) => metrics.mcpMessages.inc({ method, tool }));
  mountAgentCard(app, ctx, registry);
  mountMetrics(app, metrics);
  // The operator's API (docs/admin.md): its own credential, outside the registry and every document derived from it.
  mountAdmin(app, ctx, services);
  // The web site for people (docs/site.md): pages on the host root that read through the public operations above.
  mountSite(app, ctx);

  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const methods = registry.methodsAt(path);
    if (methods.length > 0) {
      // Hono answers HEAD for every GET route: the Allow header and the `allowed` member say so alike.
      const allowed = [...methods, ...(methods.includes("GET") ? ["HEAD"] : [])];
      const allow = allowed.join(", ");
      return problemResponse(
        new ApiError("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed on ${path}; allowed: ${allow}`, { allowed }, { Allow: allow }),
        c.req.url,
      );
    }
    if (wantsSitePage(c)) return siteNotFound(c);
    return problemResponse(new ApiError("NOT_FOUND", `No route for ${c.req.method} ${path}`), c.req.url);
  });

  app.onError((err, c) => {
    if (err instanceof ApiError) return problemResponse(err, c.req.url);
    const requestId = c.var.requestId ?? "unknown";
    if (isDatabaseUnavailable(err)) {
      // A database restart or fail-over: not a bug. 503 + Retry-After, so clients back off and retry (docs/errors.md).
      (c.var.log?.() ?? ctx.log).warn({ err, requestId }, "database unavailable");
      const retry = String(DATABASE_RETRY_AFTER_S);
      return problemResponse(
        new ApiError("SERVICE_UNAVAILABLE", "the database cannot be reached right now; retry after Retry-After seconds", {}, { "Retry-After": retry }),
        c.req.url,
        { requestId },
      );
    }
    (c.var.log?.() ?? ctx.log).error({ err, requestId, method: c.req.method, path: new URL(c.req.url).pathname }, "internal error");
    // The detail never carries the stack or message of an unexpected error; the request id finds it in the log.
    return problemResponse(new ApiError("INTERNAL_ERROR", `Internal error; quote request id ${requestId}`), c.req.url, { requestId });
  });
  return { app, registry };
}
