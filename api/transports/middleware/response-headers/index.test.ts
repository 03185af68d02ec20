import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { serveMiddleware, type ServedApp } from "../../../../test/support/middleware";
import { addResponseHeaders, SECURITY_HEADERS, sealedResponse } from "./index";

/** Hono's secure-headers with the options this service used to pass it: the written-out set must stay the same. */
async function honoSecurityHeaders(): Promise<Record<string, string>> {
  const app = new Hono();
  app.use(
    secureHeaders({
      overwrite: false,
      contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
      referrerPolicy: "no-referrer",
      xFrameOptions: "DENY",
      crossOriginResourcePolicy: "same-site",
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.get("/", (c) => c.body(null, 204));
  const res = await app.request("/");
  return Object.fromEntries(res.headers);
}

describe("response headers", () => {
  let s: ServedApp;
  before(async () => {
    s = await serveMiddleware((app) => {
      app.use(async (c, next) => {
        addResponseHeaders(c, { "X-Request-Id": "r-1", "RateLimit-Remaining": "7" });
        await next();
      });
      app.get("/sealed", (c) => sealedResponse(c, 201, '{"a":1}', { "content-type": "application/json", "x-own": "yes", "x-request-id": "own" }));
      app.get("/plain", (c) => c.json({ b: 2 }, 200, { "X-Content-Type-Options": "handler's", "Content-Security-Policy": "default-src 'self'" }));
      app.get("/powered", (c) => c.text("x", 200, { "X-Powered-By": "something" }));
    });
  });
  after(() => s.close());

  it("writes out exactly the headers of Hono's secure-headers with the service's options", async () => {
    assert.deepEqual({ ...SECURITY_HEADERS }, await honoSecurityHeaders());
  });

  it("a sealed answer carries its own, the added and the security headers; added ones win over its own", async () => {
    const res = await s.call("/sealed");
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { a: 1 });
    assert.equal(res.headers.get("x-own"), "yes");
    assert.equal(res.headers.get("x-request-id"), "r-1");
    assert.equal(res.headers.get("ratelimit-remaining"), "7");
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) assert.equal(res.headers.get(k), v, k);
  });

  it("any other answer gets the added headers on the way out; a security header it set itself is kept", async () => {
    const res = await s.call("/plain");
    assert.deepEqual(await res.json(), { b: 2 });
    assert.equal(res.headers.get("x-request-id"), "r-1");
    assert.equal(res.headers.get("content-security-policy"), "default-src 'self'");
    assert.equal(res.headers.get("x-content-type-options"), "handler's");
    assert.equal(res.headers.get("x-frame-options"), "DENY");
  });

  it("drops X-Powered-By as Hono's secure-headers did", async () => {
    const res = await s.call("/powered");
    assert.equal(res.headers.get("x-powered-by"), null);
  });
});
