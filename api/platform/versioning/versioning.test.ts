/**
 * Versioning over real HTTP: the `Svc-Version` pin (accepted, resolved to the newest version on or before it, or
 * refused with 400 INVALID_PAYLOAD and nothing run), and the `Deprecation`/`Sunset`/`Link` headers that the registry's
 * `deprecation` field drives, with links built from the origin the client used. No served operation is deprecated,
 * so a second app on the same service runs a test registry with deprecated operations (as api/transports/mcp/mcp.test.ts does).
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { z } from "zod";
import { createApp } from "../../app";
import type { ServiceContext } from "../../context";
import { Registry } from "../../registry/registry";
import { defineOperation } from "../../registry/types";
import { getServerTime } from "../../operations/system/get-server-time";
import { getChangelog } from "../../operations/meta/get-changelog";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { API_VERSIONS, CURRENT_VERSION, resolveVersion } from "./versions";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let runs = 0;
const base = { category: "test", permission: "none", tier: "read-only", scopes: [], rateClass: "read", charged: true, mcpTool: null } as const;

/** Echoes the version the handler was given. */
const whichVersion = defineOperation({
  ...base,
  id: "whichVersion",
  method: "POST",
  path: "/test/which-version",
  summary: "The resolved version (test operation)",
  idempotency: "exempt",
  request: { body: z.object({}) },
  response: z.object({ version: z.string(), runs: z.number().int() }),
  async handler(_ctx, _input, call) {
    runs += 1;
    return { version: call.version, runs };
  },
});

/** Deprecated with a removal date and a successor. */
const oldThing = defineOperation({
  ...base,
  id: "oldThing",
  method: "GET",
  path: "/test/old-thing",
  summary: "Old thing (test operation)",
  idempotency: "exempt",
  request: {},
  response: z.object({ ok: z.boolean() }),
  deprecation: { since: "2026-11-15", sunset: "2027-03-01", replacement: "GET /test/new-thing" },
  async handler() {
    return { ok: true };
  },
});

/** Deprecated, no removal date yet. */
const fadingThing = defineOperation({
  ...oldThing,
  id: "fadingThing",
  path: "/test/fading-thing",
  summary: "Fading thing (test operation)",
  deprecation: { since: "2026-12-01" },
});

// The change feed is an operation of the registry: the deprecation Link names it, so this registry serves it too.
const registry = new Registry([getServerTime, getChangelog, whichVersion, oldThing, fadingThing]);

async function serveApp(ctx: ServiceContext, t: TestService): Promise<{ server: ServerType; origin: string }> {
  const { app } = createApp(ctx, t.svc, registry);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A GET over real HTTP with the Host header a client behind another name would send (fetch cannot set it). */
function getWithHost(origin: string, path: string, host: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { headers: { host } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("resolveVersion", () => {
  it("serves the newest version on or before the pin, and refuses malformed, impossible and too-old dates", () => {
    assert.equal(resolveVersion(undefined), CURRENT_VERSION);
    assert.equal(resolveVersion(""), CURRENT_VERSION);
    assert.equal(resolveVersion(API_VERSIONS[0]), API_VERSIONS[0]);
    assert.equal(resolveVersion("2099-12-31"), CURRENT_VERSION);
    for (const bad of ["2026-10-31", "yesterday", "2026-11-1", "2026-13-01", "2026-02-30", "2027-11-31", " 2026-11-01"])
      assert.equal(resolveVersion(bad), null, bad);
  });
});

describe("versioning over HTTP", () => {
  let t: TestService;
  let own: { server: ServerType; origin: string };
  let pinned: { server: ServerType; origin: string };
  const api = (origin: string) => `${origin}/api/agent/v1`;

  before(async () => {
    t = await startTestService();
    own = await serveApp(t.svc.ctx, t);
    // The same service with PUBLIC_URL set: links name the public origin whatever the request's.
    const config = { ...t.svc.ctx.config, PUBLIC_URL: "https://agents.example.test", publicUrl: "https://agents.example.test" };
    pinned = await serveApp({ ...t.svc.ctx, config }, t);
  });
  after(async () => {
    for (const s of [own, pinned]) await new Promise<void>((r) => s.server.close(() => r()));
    await stopTestService(t);
  });

  it("without a pin serves the current version and echoes it in Svc-Version", async () => {
    const res = await fetch(`${t.svc.baseUrl}/time`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("svc-version"), CURRENT_VERSION);
  });

  it("an accepted pin reaches the handler resolved, and is echoed", async () => {
    for (const [pin, served] of [
      [API_VERSIONS[0], API_VERSIONS[0]],
      ["2099-01-01", CURRENT_VERSION],
    ]) {
      const res = await fetch(`${api(own.origin)}/test/which-version`, {
        method: "POST",
        headers: { "svc-version": pin, "content-type": "application/json" },
        body: "{}",
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("svc-version"), served);
      assert.equal(((await res.json()) as Json).version, served);
    }
  });

  it("an unusable pin is 400 INVALID_PAYLOAD naming Svc-Version and the supported versions, and runs nothing", async () => {
    const before = runs;
    for (const pin of ["2026-10-31", "v1", "2026-02-30"]) {
      const res = await fetch(`${api(own.origin)}/test/which-version`, {
        method: "POST",
        headers: { "svc-version": pin, "content-type": "application/json" },
        body: "{}",
      });
      assert.equal(res.status, 400, pin);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      const p = (await res.json()) as Json;
      assert.equal(p.code, "INVALID_PAYLOAD");
      assert.equal(p.field, "Svc-Version");
      assert.deepEqual(p.supportedVersions, [...API_VERSIONS]);
      assert.match(String(p.detail), new RegExp(JSON.stringify(pin)));
    }
    assert.equal(runs, before, "the handler never ran");
    // Host-root paths are outside the versioned API: the pin is not read there.
    const nonce = await fetch(new URL("/api/auth/nonce", t.svc.baseUrl), { method: "POST", headers: { "svc-version": "v1" } });
    assert.equal(nonce.status, 200);
    assert.equal(nonce.headers.get("svc-version"), null);
  });

  it("a deprecated operation with a sunset answers Deprecation, Sunset and Link (change feed, successor) from the request origin", async () => {
    const res = await fetch(`${api(own.origin)}/test/old-thing`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("deprecation"), `@${Date.UTC(2026, 10, 15) / 1000}`);
    assert.equal(res.headers.get("sunset"), "Mon, 01 Mar 2027 00:00:00 GMT");
    assert.equal(
      res.headers.get("link"),
      `<${api(own.origin)}/changelog.atom>; rel="deprecation"; type="application/atom+xml", <${api(own.origin)}/test/new-thing>; rel="successor-version"`,
    );
    assert.ok(res.headers.get("ratelimit-limit"), "the usual headers stay");
    // The change feed the link names is served there.
    const feed = await fetch(`${api(own.origin)}/changelog.atom`);
    assert.equal(feed.status, 200);
    assert.match(await feed.text(), /deprecation-oldThing/);

    // A client that reached the service under another name gets links under that name.
    const other = await getWithHost(own.origin, "/api/agent/v1/test/old-thing", "agents.internal.test:8443");
    assert.equal(other.status, 200);
    assert.match(String(other.headers.link), /^<http:\/\/agents\.internal\.test:8443\/api\/agent\/v1\/changelog\.atom>; rel="deprecation"/);
    // With PUBLIC_URL, the public origin, whatever the Host.
    const pub = await getWithHost(pinned.origin, "/api/agent/v1/test/old-thing", "agents.internal.test:8443");
    assert.match(
      String(pub.headers.link),
      /^<https:\/\/agents\.example\.test\/api\/agent\/v1\/changelog\.atom>; rel="deprecation".*<https:\/\/agents\.example\.test\/api\/agent\/v1\/test\/new-thing>; rel="successor-version"$/,
    );
  });

  it("a deprecated operation without a sunset answers Deprecation and the change-feed Link only; others answer none", async () => {
    const res = await fetch(`${api(own.origin)}/test/fading-thing`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("deprecation"), `@${Date.UTC(2026, 11, 1) / 1000}`);
    assert.equal(res.headers.get("sunset"), null);
    assert.equal(res.headers.get("link"), `<${api(own.origin)}/changelog.atom>; rel="deprecation"; type="application/atom+xml"`);
    const current = await fetch(`${api(own.origin)}/time`);
    assert.deepEqual(
      ["deprecation", "sunset", "link"].map((h) => current.headers.get(h)),
      [null, null, null],
    );
  });
});
