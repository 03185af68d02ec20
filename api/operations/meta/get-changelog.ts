import { z } from "zod";
import { defineOperation, Reply } from "../../registry/types";
import { buildAtomFeed } from "../../registry/changelog/feed";
import { feedKey, signatureHeader, SIGNATURE_HEADER } from "../../registry/changelog/signing";
import { API_BASE_PATH } from "../../platform/versioning/versions";
import { PUBLIC_READ } from "../discover/common";

/** GET /changelog.atom: the Atom change feed with its detached Ed25519 signature header (docs/versioning.md). */
export const getChangelog = defineOperation({
  id: "getChangelog",
  method: "GET",
  path: "/changelog.atom",
  summary: "Signed Atom change feed of the API",
  description: `The exact bytes are signed: verify \`${SIGNATURE_HEADER}\` with the key of GET /changelog/signing-key (also named in the Link header). Over MCP the feed is the tool's text content.`,
  ...PUBLIC_READ,
  category: "meta",
  request: {},
  responseContentType: "application/atom+xml; charset=utf-8",
  response: z.string().describe("Atom 1.0 (RFC 4287) XML"),
  mcpTool: "svc_get_changelog",
  async handler(ctx, _input, call) {
    const text = buildAtomFeed(call.registry, call.origin);
    const key = await feedKey(ctx.db, ctx.clock.now());
    return new Reply(200, text, {
      [SIGNATURE_HEADER]: signatureHeader(key, new TextEncoder().encode(text)),
      Link: `<${call.origin}${API_BASE_PATH}/changelog/signing-key>; rel="signing-key"; type="application/json"`,
      "Cache-Control": "public, max-age=300",
    });
  },
});
