/**
 * The API reference page runs no third-party script (security review: /docs loaded an unpinned CDN script): its only
 * external script is the vendored bundle served by the service with the pinned hash, its inline configuration is
 * allowed by hash in its CSP, and every answer carries nosniff, Referrer-Policy and frame-ancestors.
 */
import { strict as assert } from "node:assert";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { SCALAR_BUNDLE } from "./reference-page";

const PINNED_SHA256 = "c2eae6caf260ed701ca5fcb867c6f9a5cbd75dabbe0b1cab5a2353018860efd7";

describe("API reference page and security headers", () => {
  let t: TestService;
  let root: string;
  before(async () => {
    t = await startTestService();
    root = new URL(t.svc.baseUrl).origin;
  });
  after(async () => stopTestService(t));

  for (const path of ["/docs", "/api/agent/v1/docs"]) {
    it(`${path}: scripts only from this origin, the inline one allowed by hash; CSP, nosniff, Referrer-Policy, no framing`, async () => {
      const res = await fetch(`${root}${path}`);
      assert.equal(res.status, 200);
      assert.match(String(res.headers.get("content-type")), /^text\/html/);
      const html = await res.text();
      const srcs = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
      assert.deepEqual(srcs, [SCALAR_BUNDLE.path], "one external script, served here");
      assert.doesNotMatch(html, /https?:\/\/(cdn|fonts)\./);
      const csp = String(res.headers.get("content-security-policy"));
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /default-src 'none'/);
      const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src "))!;
      assert.ok(!scriptSrc.includes("unsafe-inline") && !scriptSrc.includes("http"), scriptSrc);
      for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
        assert.ok(scriptSrc.includes(`'sha256-${createHash("sha256").update(m[1]!).digest("base64")}'`), "the inline script's hash is allowed");
      }
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      assert.equal(res.headers.get("referrer-policy"), "no-referrer");
      assert.equal(res.headers.get("x-frame-options"), "DENY");
    });
  }

  it("serves the vendored bundle with the pinned hash, as JavaScript, cacheable for ever", async () => {
    const res = await fetch(`${root}${SCALAR_BUNDLE.path}`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get("content-type")), /^application\/javascript/);
    assert.match(String(res.headers.get("cache-control")), /immutable/);
    assert.equal(
      createHash("sha256")
        .update(Buffer.from(await res.arrayBuffer()))
        .digest("hex"),
      PINNED_SHA256,
    );
  });

  it("JSON answers and problems carry the headers too, with a CSP that allows nothing", async () => {
    for (const path of ["/api/agent/v1/time", "/api/agent/v1/no-such-route", "/openapi.json"]) {
      const res = await fetch(`${root}${path}`);
      await res.arrayBuffer();
      assert.equal(res.headers.get("x-content-type-options"), "nosniff", path);
      assert.equal(res.headers.get("referrer-policy"), "no-referrer", path);
      assert.match(String(res.headers.get("content-security-policy")), /default-src 'none'.*frame-ancestors 'none'/, path);
    }
  });
});
