import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { serveMiddleware, type ServedApp } from "../../../../test/support/middleware";
import { deprecation } from "./index";

const SINCE = "2026-11-01";
const SUNSET = "2027-05-01";

describe("deprecation middleware", () => {
  let s: ServedApp;
  before(async () => {
    const apiBase = (c: { req: { url: string } }) => `${new URL(c.req.url).origin}/api/agent/v1`;
    s = await serveMiddleware((app) => {
      const sunsetting = deprecation({ since: SINCE, sunset: SUNSET, replacement: "GET /discover/markets" }, apiBase);
      const deprecatedOnly = deprecation({ since: SINCE }, apiBase);
      assert.ok(sunsetting && deprecatedOnly);
      app.get("/old", sunsetting, (c) => c.json({ ok: true }));
      app.get("/older", deprecatedOnly, (c) => c.json({ ok: true }));
    });
  });
  after(() => s.close());

  it("mounts nothing for an operation that is not deprecated", () => {
    assert.equal(
      deprecation(undefined, () => ""),
      null,
    );
  });

  it("fails when the route is mounted, not on a request, for a malformed date", () => {
    assert.throws(() => deprecation({ since: "soon" }, () => ""), /since soon is not a date/);
  });

  it("sets Deprecation, Sunset and absolute Link headers to the change feed and the successor", async () => {
    const res = await s.call("/old");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("deprecation"), `@${Date.parse(`${SINCE}T00:00:00Z`) / 1000}`);
    assert.equal(res.headers.get("sunset"), new Date(`${SUNSET}T00:00:00Z`).toUTCString());
    assert.equal(
      res.headers.get("link"),
      `<${s.url}/api/agent/v1/changelog.atom>; rel="deprecation"; type="application/atom+xml", <${s.url}/api/agent/v1/discover/markets>; rel="successor-version"`,
    );
    assert.deepEqual(await res.json(), { ok: true });
  });

  it("without a sunset: Deprecation and the change-feed link only", async () => {
    const res = await s.call("/older");
    assert.ok(res.headers.get("deprecation"));
    assert.equal(res.headers.get("sunset"), null);
    assert.equal(res.headers.get("link"), `<${s.url}/api/agent/v1/changelog.atom>; rel="deprecation"; type="application/atom+xml"`);
  });
});
