/** GET {base}/changelog.atom: the Atom change feed with its detached Ed25519 signature header. */
import type { Hono } from "hono";
import type { ServiceContext } from "../../context";
import { API_BASE_PATH, type Registry } from "../../registry/registry";
import { originOf } from "../rest/router";
import { buildAtomFeed } from "./feed";
import { feedKey, signatureHeader, SIGNATURE_HEADER } from "./signing";

export const CHANGELOG_PATH = `${API_BASE_PATH}/changelog.atom`;
export const SIGNING_KEY_PATH = `${API_BASE_PATH}/changelog/signing-key`;

export function mountChangelog(app: Hono, ctx: ServiceContext, registry: Registry): void {
  app.get(CHANGELOG_PATH, async (c) => {
    const origin = originOf(c, ctx.config.PUBLIC_URL);
    const bytes = new TextEncoder().encode(buildAtomFeed(registry, origin));
    const key = await feedKey(ctx.db, ctx.clock.now());
    return c.body(bytes, 200, {
      "Content-Type": "application/atom+xml; charset=utf-8",
      [SIGNATURE_HEADER]: signatureHeader(key, bytes),
      Link: `<${origin}${SIGNING_KEY_PATH}>; rel="signing-key"; type="application/json"`,
      "Cache-Control": "public, max-age=300",
    });
  });
}
