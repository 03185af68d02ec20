/**
 * Request ids: takes a sane `X-Request-Id` from the client (or the MCP adapter) or makes one, echoes it on the
 * response, and gives the request a pino child logger that carries it. Each request is logged once when it ends, at the level `accessLogLevel` picks.
 */
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { internalCallOf } from "../caller";
import { addResponseHeaders } from "../response-headers";

export interface RequestIdVariables {
  requestId: string;
  /** The request's logger (a pino child carrying the id), made on first use: most requests never log but their access line. */
  log: () => Logger;
}

declare module "hono" {
  interface ContextVariableMap extends RequestIdVariables {}
}

/** Successful reads (agents poll; the demo market maker quotes all day) only at debug, so that info shows what
 *  changed something or went wrong; server errors at warn (the error handler logs the cause at error). */
export function accessLogLevel(method: string, status: number): "debug" | "info" | "warn" {
  if (status >= 500) return "warn";
  if (status < 400 && (method === "GET" || method === "HEAD" || method === "OPTIONS")) return "debug";
  return "info";
}

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(opts: { log: Logger; now: () => number }): MiddlewareHandler {
  if (!opts.log) throw new Error("requestId: a logger is required");
  return async function requestIdMiddleware(c, next) {
    const given = internalCallOf(c)?.requestId ?? c.req.header("x-request-id");
    const id = given && SANE_ID.test(given) ? given : randomUUID();
    let child: Logger | undefined;
    c.set("requestId", id);
    c.set("log", () => (child ??= opts.log.child({ requestId: id })));
    addResponseHeaders(c, { "x-request-id": id });
    const started = opts.now();
    await next();
    const level = accessLogLevel(c.req.method, c.res.status);
    if (!opts.log.isLevelEnabled(level)) return;
    const line = { method: c.req.method, path: c.req.path, status: c.res.status, ms: opts.now() - started };
    c.get("log")()[level](line, "request");
  };
}
