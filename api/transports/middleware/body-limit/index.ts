/**
 * The request-size limit: a body over MAX_BODY_BYTES (MAX_MCP_BODY_BYTES on POST /mcp, whose JSON-RPC envelope wraps a
 * tool's arguments) answers 413 PAYLOAD_TOO_LARGE as a problem before any handler reads it. Hono's bodyLimit checks
 * Content-Length when the request has one and counts the streamed bytes otherwise (chunked uploads), so a client
 * cannot get past it by leaving the length out.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../../../platform/errors/api-error";
import { problemResponse } from "../../../platform/errors/problem";

export const MAX_BODY_BYTES = 1_000_000;
export const MAX_MCP_BODY_BYTES = 1_100_000;

function limitOf(maxSize: number): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: (c) => problemResponse(new ApiError("PAYLOAD_TOO_LARGE", `the request body exceeds ${maxSize} bytes`, { limit: maxSize }), c.req.url),
  });
}

/**
 * One middleware for the whole app: the limit of the path it serves. GET and HEAD are passed by: no operation reads
 * their body, and asking for it (`c.req.raw.body`, which bodyLimit does) makes @hono/node-server build the full
 * Request with its AbortSignal for every read, which halved `api-reads` (docs/api-performance.md).
 */
export function requestSizeLimit(mcpPath: string): MiddlewareHandler {
  const rest = limitOf(MAX_BODY_BYTES);
  const mcp = limitOf(MAX_MCP_BODY_BYTES);
  return (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    return c.req.path === mcpPath ? mcp(c, next) : rest(c, next);
  };
}
