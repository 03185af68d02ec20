/**
 * Security headers on every answer (Hono's secure-headers): `X-Content-Type-Options: nosniff`, `Referrer-Policy:
 * no-referrer`, `X-Frame-Options: DENY` and a Content-Security-Policy that allows nothing and no framing
 * (`frame-ancestors 'none'`). JSON, problems and streams need no more; an HTML page that needs more (the API reference
 * at /docs) sets its own CSP, which this middleware keeps (`overwrite: false`). docs/security.md lists what each
 * header defends.
 */
import type { MiddlewareHandler } from "hono";
import { secureHeaders as honoSecureHeaders } from "hono/secure-headers";

export function secureHeaders(): MiddlewareHandler {
  return honoSecureHeaders({
    overwrite: false,
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    referrerPolicy: "no-referrer",
    xFrameOptions: "DENY",
    // Answers are read cross-origin by agents and docs tools through CORS; resource policy stays same-site for no-cors loads.
    crossOriginResourcePolicy: "same-site",
    crossOriginEmbedderPolicy: false,
  });
}
