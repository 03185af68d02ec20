/**
 * Deprecation headers from the registry (RFC 9745 `Deprecation`, RFC 8594 `Sunset`, `Link` to the successor and to
 * the change feed). Operations without a deprecation get no middleware at all. The links are absolute and built from
 * the origin the client used (PUBLIC_URL, else the request's own), like every other link the API gives.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { Deprecation } from "../../../registry/types";

export function deprecationHeaders(d: Deprecation, apiBase: string): Record<string, string> {
  const since = Date.parse(`${d.since}T00:00:00Z`);
  if (Number.isNaN(since)) throw new Error(`deprecation: since ${d.since} is not a date`);
  const headers: Record<string, string> = { Deprecation: `@${Math.floor(since / 1000)}` };
  const links = [`<${apiBase}/changelog.atom>; rel="deprecation"; type="application/atom+xml"`];
  if (d.sunset) {
    headers.Sunset = new Date(`${d.sunset}T00:00:00Z`).toUTCString();
    if (d.replacement) links.push(`<${apiBase}${d.replacement.replace(/^[A-Z]+\s+/, "")}>; rel="successor-version"`);
  }
  headers.Link = links.join(", ");
  return headers;
}

/** `apiBaseOf` gives the absolute API base of a request, e.g. `http://127.0.0.1:8080/api/agent/v1`. */
export function deprecation(d: Deprecation | undefined, apiBaseOf: (c: Context) => string): MiddlewareHandler | null {
  if (!d) return null;
  deprecationHeaders(d, ""); // a malformed date fails when the route is mounted, not on the first request
  return async function deprecationMiddleware(c, next) {
    await next();
    for (const [k, v] of Object.entries(deprecationHeaders(d, apiBaseOf(c)))) c.res.headers.set(k, v);
  };
}
