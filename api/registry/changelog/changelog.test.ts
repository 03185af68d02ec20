import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createPublicKey, verify } from "node:crypto";
import { z } from "zod";
import type { RunningService } from "../../service";
import { manualClock } from "../../../relayer/clock";
import { restartTestService, startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { Registry } from "../registry";
import { defineOperation } from "../types";
import { buildAtomFeed } from "./feed";
import { CHANGELOG_ENTRIES } from "./entries";
import { OPERATIONS } from "../../operations";
import { parseSignatureHeader, verifyFeedSignature } from "./signing";

describe("signed change feed over real HTTP", () => {
  let svc: RunningService;
  let t: TestService;
  before(async () => {
    t = await startTestService({}, { clock: manualClock(1_800_000_000_000) });
    svc = t.svc;
  });
  after(async () => {
    await stopTestService(t);
  });

  async function fetchFeed(): Promise<{ bytes: Buffer; header: string; res: Response }> {
    const res = await fetch(`${svc.baseUrl}/changelog.atom`);
    assert.equal(res.status, 200);
    return { bytes: Buffer.from(await res.arrayBuffer()), header: res.headers.get("x-feed-signature") ?? "", res };
  }

  it("is a registry operation: in /openapi.json (as Atom), the capabilities and MCP (the feed as the tool's text)", async () => {
    const doc = (await (await fetch(`${svc.baseUrl}/openapi.json`)).json()) as any;
    const op = doc.paths["/changelog.atom"]?.get;
    assert.equal(op?.operationId, "getChangelog");
    assert.ok(op.responses["200"].content["application/atom+xml; charset=utf-8"], "documented as Atom");
    const caps = (await (await fetch(`${svc.baseUrl}/discover/capabilities`)).json()) as any;
    assert.ok(JSON.stringify(caps).includes("/changelog.atom"), "listed in the capabilities");
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    const client = new Client({ name: "changelog-test", version: "1.0.0" });
    const { createLocalAgent } = await import("../../domain/auth/local-agents");
    const agent = await createLocalAgent(svc.ctx.db, t.clock, { name: "feed-reader", tier: "read-only" });
    await client.connect(new StreamableHTTPClientTransport(new URL(svc.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${agent.apiKey}` } } }));
    try {
      const tools = await client.listTools();
      assert.ok(tools.tools.some((t) => t.name === "svc_get_changelog"));
      const result = (await client.callTool({ name: "svc_get_changelog", arguments: {} })) as { isError?: boolean; content: { type: string; text: string }[] };
      assert.ok(!result.isError, JSON.stringify(result));
      assert.equal(result.content[0]!.text, (await fetchFeed()).bytes.toString("utf8"));
    } finally {
      await client.close();
    }
  });

  it("is an Atom feed with the hand-written entries and one per deprecated operation", async () => {
    const { bytes, res } = await fetchFeed();
    assert.match(res.headers.get("content-type") ?? "", /^application\/atom\+xml/);
    const xml = bytes.toString("utf8");
    assert.match(xml, /^<\?xml version="1.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/);
    // RFC 4287: feed id, title, updated, author; each entry id, title, updated.
    for (const tag of ["id", "title", "updated", "author"]) assert.match(xml.split("<entry>")[0], new RegExp(`<${tag}>`), `feed ${tag}`);
    const entries = xml.split("<entry>").slice(1);
    const deprecated = OPERATIONS.filter((op) => op.deprecation);
    assert.ok(deprecated.length > 0, "the served registry holds a deprecated operation (the P&L history)");
    assert.equal(entries.length, CHANGELOG_ENTRIES.length + deprecated.length);
    for (const op of deprecated) assert.ok(xml.includes(`deprecation-${op.id}`), op.id);
    for (const e of entries) for (const tag of ["id", "title", "updated"]) assert.match(e, new RegExp(`<${tag}>[^<]+</${tag}>`));
    assert.match(xml, new RegExp(`<link rel="self" type="application/atom\\+xml" href="${svc.baseUrl.replace(/[.]/g, "\\.")}/changelog\\.atom"/>`));
  });

  it("verifies against the published Ed25519 key, as docs/versioning.md tells a client to", async () => {
    const { bytes, header, res } = await fetchFeed();
    assert.match(res.headers.get("link") ?? "", /changelog\/signing-key>; rel="signing-key"/);
    const keyRes = await fetch(`${svc.baseUrl}/changelog/signing-key`);
    assert.equal(keyRes.status, 200);
    const key = (await keyRes.json()) as { keyId: string; publicKeyPem: string; publicKeyJwk: { x: string } };
    // The plain node:crypto way, without the service's helper.
    const sig = /sig="([^"]+)"/.exec(header)?.[1] ?? "";
    assert.equal(verify(null, bytes, createPublicKey(key.publicKeyPem), Buffer.from(sig, "base64")), true);
    assert.equal(
      verify(null, bytes, createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: key.publicKeyJwk.x }, format: "jwk" }), Buffer.from(sig, "base64")),
      true,
    );
    assert.equal(parseSignatureHeader(header)?.keyId, key.keyId);
    assert.equal(verifyFeedSignature(bytes, header, key.publicKeyPem), true);
    // One changed byte, or another key, fails.
    const tampered = Buffer.from(bytes);
    tampered[tampered.length - 3] ^= 1;
    assert.equal(verifyFeedSignature(tampered, header, key.publicKeyPem), false);
    const { generateKeyPairSync } = await import("node:crypto");
    const other = generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" }).toString();
    assert.equal(verifyFeedSignature(bytes, header, other), false);
  });

  it("keeps its key across a restart on the same database", async () => {
    const before1 = (await (await fetch(`${svc.baseUrl}/changelog/signing-key`)).json()) as { keyId: string };
    const { header } = await fetchFeed();
    t = await restartTestService(t);
    svc = t.svc;
    const again = (await (await fetch(`${svc.baseUrl}/changelog/signing-key`)).json()) as { keyId: string };
    assert.equal(again.keyId, before1.keyId);
    const second = await fetchFeed();
    assert.equal(parseSignatureHeader(second.header)?.keyId, parseSignatureHeader(header)?.keyId);
    const key = (await (await fetch(`${svc.baseUrl}/changelog/signing-key`)).json()) as { publicKeyPem: string };
    assert.equal(verifyFeedSignature(second.bytes, second.header, key.publicKeyPem), true);
  });
});

describe("automatic deprecation entries", () => {
  it("adds one entry per deprecated operation, newest first, with sunset and replacement", () => {
    const base = {
      category: "t",
      permission: "none",
      tier: "read-only",
      scopes: [],
      rateClass: "read",
      charged: true,
      idempotency: "exempt",
      request: {},
      response: z.object({}),
      mcpTool: null,
      handler: async () => ({}),
    } as const;
    const registry = new Registry([
      defineOperation({ ...base, id: "current", method: "GET", path: "/current", summary: "c" }),
      defineOperation({
        ...base,
        id: "old",
        method: "GET",
        path: "/old",
        summary: "o",
        deprecation: { since: "2026-12-01", sunset: "2027-03-01", replacement: "GET /current" },
      }),
    ]);
    const xml = buildAtomFeed(registry, "https://api.example.test");
    const entries = xml.split("<entry>").slice(1);
    assert.equal(entries.length, CHANGELOG_ENTRIES.length + 1);
    assert.match(entries[0], /<title>Deprecated: GET \/api\/agent\/v1\/old<\/title>/);
    assert.match(entries[0], /removed on 2027-03-01\. Use GET \/current instead\./);
    assert.match(entries[0], /<category term="deprecated"\/>/);
    assert.match(xml, /<feed[^>]*>[\s\S]*?<updated>2026-12-01T00:00:00Z<\/updated>/);
  });
});

describe("deprecation policy of the served registry", () => {
  it("every deprecated operation names a valid since date and, once set, a sunset at least 90 days later", async () => {
    const { OPERATIONS } = await import("../../operations");
    for (const op of OPERATIONS) {
      if (!op.deprecation) continue;
      const since = Date.parse(`${op.deprecation.since}T00:00:00Z`);
      assert.ok(!Number.isNaN(since), `${op.id} since`);
      if (op.deprecation.sunset)
        assert.ok(Date.parse(`${op.deprecation.sunset}T00:00:00Z`) - since >= 90 * 86_400_000, `${op.id}: sunset less than 90 days after since`);
    }
  });
});
