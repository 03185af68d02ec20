/**
 * The Hono application: the agent API under /api/agent/v1, and the error policy every route shares
 * (RFC 9457 problems for unknown routes, thrown ApiErrors and internal errors).
 */
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { ApiError } from "./errors/api-error";
import { problemResponse } from "./errors/problem";
import type { ServiceContext } from "./context";
import { mountLedgerProof } from "./ledger/proof-route";

export const API_BASE_PATH = "/api/agent/v1";

export function createApp(ctx: ServiceContext): Hono {
  const app = new Hono();
  const api = new Hono();

  api.get("/time", (c) => c.json({ serverTime: ctx.clock.now() }));

  app.route(API_BASE_PATH, api);
  mountLedgerProof(app, () => ctx.publishedLedger());

  app.notFound((c) => problemResponse(new ApiError("NOT_FOUND", `No route for ${c.req.method} ${new URL(c.req.url).pathname}`), c.req.url));

  app.onError((err, c) => {
    if (err instanceof ApiError) return problemResponse(err, c.req.url);
    const requestId = c.req.header("x-request-id") ?? randomUUID();
    ctx.log.error({ err, requestId, method: c.req.method, path: new URL(c.req.url).pathname }, "internal error");
    // The detail never carries the stack or message of an unexpected error; the request id finds it in the log.
    return problemResponse(new ApiError("INTERNAL_ERROR", `Internal error; quote request id ${requestId}`), c.req.url, { requestId });
  });
  return app;
}
