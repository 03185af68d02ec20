/**
 * RFC 9457 problem documents: the one place an error becomes a response body.
 * `type` is an absolute URI on the serving host that ends in the code, e.g. http://127.0.0.1:8080/problems/NOT_FOUND.
 */
import type { Duplex } from "node:stream";
import type { ApiError } from "./api-error";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  [extension: string]: unknown;
}

export function problemOf(err: ApiError, requestUrl: string, extra: Record<string, unknown> = {}): Problem {
  const problem: Problem = {
    type: new URL(`/problems/${err.code}`, requestUrl).toString(),
    title: err.title,
    status: err.status,
    detail: err.detail,
    code: err.code,
  };
  // Extensions follow; one named like a standard member (e.g. a subscription's `status`) never overrides it.
  for (const [name, value] of Object.entries({ ...err.extensions, ...extra })) if (!(name in problem)) problem[name] = value;
  return problem;
}

/** A complete problem response, headers of the error included. */
export function problemResponse(err: ApiError, requestUrl: string, extra: Record<string, unknown> = {}): Response {
  return new Response(JSON.stringify(problemOf(err, requestUrl, extra)), {
    status: err.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...err.headers },
  });
}

/**
 * The problem as a raw HTTP answer on an upgrade's socket, which is then closed: a refused WebSocket upgrade never
 * reaches a framework that would build the answer (the realtime server's refusals, a follower with no leader).
 */
export function refuseUpgrade(socket: Duplex, err: ApiError, requestUrl: string): void {
  const body = JSON.stringify(problemOf(err, requestUrl));
  const extra = Object.entries(err.headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  if (socket.destroyed) return;
  socket.end(
    `HTTP/1.1 ${err.status} ${err.title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
