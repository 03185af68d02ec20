/**
 * The headers every answer carries besides its own: the security headers, `X-Request-Id`, `Svc-Version` and the
 * `RateLimit-*` of a charged call. Middlewares add theirs to one plain object per request before the handler runs
 * (`addResponseHeaders`); the REST router then builds its answer with all of them in one plain header object
 * (`sealedResponse`), which @hono/node-server writes as is. Any other answer (a problem, a replay, a document, MCP, a
 * stream) gets them set on its headers here, on the way out. Before, each middleware set its headers on the built
 * answer, each set going through undici's Headers, and that was a tenth of a read's CPU (docs/api-performance.md).
 *
 * The security headers are those of Hono's secure-headers with our options, written out once (a test compares them
 * with Hono's): `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY` and a
 * Content-Security-Policy that allows nothing and no framing. An answer that sets one itself keeps its own (the API
 * reference at /docs sets its CSP); the others override what a handler set. docs/security.md lists what each defends.
 */
import type { Context, MiddlewareHandler } from "hono";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "cross-origin-opener-policy": "same-origin",
  // Answers are read cross-origin by agents and docs tools through CORS; resource policy stays same-site for no-cors loads.
  "cross-origin-resource-policy": "same-site",
  "origin-agent-cluster": "?1",
  "referrer-policy": "no-referrer",
  "strict-transport-security": "max-age=15552000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "DENY",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
});

export interface ResponseHeadersVariables {
  /** Lower-case name → value, added by the middlewares for this request's answer. */
  responseHeaders: Record<string, string>;
}

declare module "hono" {
  interface ContextVariableMap extends ResponseHeadersVariables {}
}

/** Headers for this request's answer, whatever builds it (names are folded to lower case; a later value wins). */
export function addResponseHeaders(c: Context, headers: Record<string, string>): void {
  const bag = c.get("responseHeaders");
  for (const k in headers) bag[k.toLowerCase()] = headers[k]!;
}

/** What a sealed answer was built from: its body text and its own headers (content type and the handler's). */
export interface SealedReply {
  text: string;
  own: Record<string, string>;
}
const sealed = new WeakMap<Response, SealedReply>();

/** The router's answer: its own headers, the request's added headers and the security headers in one plain object. */
export function sealedResponse(c: Context, status: number, text: string, own: Record<string, string>): Response {
  const res = new Response(text, { status, headers: { ...SECURITY_HEADERS, ...own, ...c.get("responseHeaders") } });
  sealed.set(res, { text, own });
  return res;
}

/** The body and own headers of an answer built by `sealedResponse` and not replaced since; undefined otherwise. */
export function sealedReplyOf(res: Response): SealedReply | undefined {
  return sealed.get(res);
}

/** The outermost middleware but metrics: holds the request's added headers and puts them on answers built elsewhere. */
export function responseHeaders(): MiddlewareHandler {
  return async function responseHeadersMiddleware(c, next) {
    const bag: Record<string, string> = {};
    c.set("responseHeaders", bag);
    await next();
    if (sealed.has(c.res)) return;
    const h = c.res.headers;
    for (const k in bag) h.set(k, bag[k]!);
    for (const k in SECURITY_HEADERS) if (!h.has(k)) h.set(k, SECURITY_HEADERS[k]!);
    h.delete("x-powered-by");
  };
}
