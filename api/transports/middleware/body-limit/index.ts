/**
 * The request-size limit: a body over MAX_BODY_BYTES (MAX_MCP_BODY_BYTES on POST /mcp, whose JSON-RPC envelope wraps a
 * tool's arguments) answers 413 PAYLOAD_TOO_LARGE as a problem before any handler reads it. A request with a
 * Content-Length (and no Transfer-Encoding) is judged by that header alone: Node's HTTP parser never delivers more
 * bytes than it declares. Any other body (chunked uploads) goes through Hono's bodyLimit, which counts the streamed
 * bytes, so a client cannot get past the limit by leaving the length out.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../../../platform/errors/api-error";
import { problemResponse } from "../../../platform/errors/problem";

export const MAX_BODY_BYTES = 1_000_000;
export const MAX_MCP_BODY_BYTES = 1_100_000;

const tooLarge = (c: Context, maxSize: number) =>
  problemResponse(new ApiError("PAYLOAD_TOO_LARGE", `the request body exceeds ${maxSize} bytes`, { limit: maxSize }), c.req.url);

function limitOf(maxSize: number): MiddlewareHandler {
  const streamed = bodyLimit({ maxSize, onError: (c) => tooLarge(c, maxSize) });
  return (c, next) => {
    // The declared length decides without touching the body. Hono's bodyLimit asks for `c.req.raw.body` first, which
    // makes @hono/node-server build a full undici Request and web stream for every write (about a tenth of an order's
    // CPU, docs/api-performance.md); the body is then read once, straight from the socket, by whoever needs it.
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined) {
      return Number.parseInt(length, 10) > maxSize ? Promise.resolve(tooLarge(c, maxSize)) : next();
    }
    return streamed(c, next);
  };
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
