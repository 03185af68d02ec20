/**
 * The interactive API reference page ({base}/docs and /docs, Scalar) with its script served by the service itself:
 * the page is where users paste keys, so it runs no script from a CDN. The bundle is vendored (vendor/scalar/README.md)
 * and served with an immutable cache; the page's one inline script (Scalar's configuration) is allowed by its SHA-256
 * in the page's Content-Security-Policy, which also keeps every fetch on this origin and forbids framing.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Context, Hono } from "hono";
import { Scalar } from "@scalar/hono-api-reference";
import { API_BASE_PATH } from "../../platform/versioning/versions";

/** The vendored bundle: file name under vendor/scalar/ and the path it is served at. */
export const SCALAR_BUNDLE = { file: "api-reference-1.44.27.js", path: "/vendor/scalar/api-reference-1.44.27.js" } as const;

const bundleFile = join(__dirname, "..", "..", "..", "vendor", "scalar", SCALAR_BUNDLE.file);

interface Page {
  html: string;
  csp: string;
}

/** The CSP of the reference page: own scripts plus the inline configuration (by hash), own fetches, no framing. */
function pageCsp(html: string): string {
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash("sha256").update(m[1]!).digest("base64")}'`,
  );
  return [
    "default-src 'none'",
    `script-src 'self' ${inline.join(" ")}`.trim(),
    // Scalar injects its theme as style elements at run time; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    // "Try it" requests go to this API only.
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function mountReferencePage(app: Hono): void {
  let bundle: Buffer | undefined;
  app.get(SCALAR_BUNDLE.path, (c) => {
    bundle ??= readFileSync(bundleFile);
    return c.body(new Uint8Array(bundle), 200, {
      "content-type": "application/javascript; charset=utf-8",
      "cache-control": "public, max-age=31536000, immutable",
    });
  });
  const render = Scalar({
    url: `${API_BASE_PATH}/openapi.json`,
    pageTitle: "Agent prediction-market API",
    cdn: SCALAR_BUNDLE.path,
    // No font files from Scalar's CDN, no request proxy of theirs: "Try it" calls this origin directly.
    withDefaultFonts: false,
    hideClientButton: true,
  });
  let page: Promise<Page> | undefined;
  const serve = async (c: Context) => {
    page ??= (async () => {
      const res = await render(c, async () => {});
      if (!res) throw new Error("the reference page rendered nothing");
      const html = await res.text();
      return { html, csp: pageCsp(html) };
    })();
    const { html, csp } = await page;
    return c.html(html, 200, { "content-security-policy": csp });
  };
  app.get(`${API_BASE_PATH}/docs`, serve);
  app.get("/docs", serve);
}
