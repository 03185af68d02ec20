import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { serveMiddleware, type ServedApp } from "../../../../test/support/middleware";
import { API_VERSIONS, CURRENT_VERSION } from "../../../platform/versioning/versions";
import { svcVersion } from "./index";

describe("svc-version middleware", () => {
  let s: ServedApp;
  before(async () => {
    s = await serveMiddleware((app) => {
      app.use(svcVersion());
      app.get("/v", (c) => c.json({ apiVersion: c.var.apiVersion }));
    });
  });
  after(() => s.close());

  it("serves the current version without a pin and echoes it in Svc-Version", async () => {
    const res = await s.call("/v");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("svc-version"), CURRENT_VERSION);
    assert.deepEqual(await res.json(), { apiVersion: CURRENT_VERSION });
  });

  it("resolves a later pin to the newest version on or before it", async () => {
    const res = await s.call("/v", { headers: { "svc-version": "2099-12-31" } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("svc-version"), CURRENT_VERSION);
  });

  it("refuses a malformed, impossible or too-early pin with a 400 problem naming Svc-Version", async () => {
    for (const pin of ["yesterday", "2026-02-30", "2000-01-01"]) {
      const res = await s.call("/v", { headers: { "svc-version": pin } });
      assert.equal(res.status, 400, pin);
      assert.match(res.headers.get("content-type") ?? "", /application\/problem\+json/);
      const body = (await res.json()) as { code: string; field: string; supportedVersions: string[] };
      assert.equal(body.code, "INVALID_PAYLOAD");
      assert.equal(body.field, "Svc-Version");
      assert.deepEqual(body.supportedVersions, [...API_VERSIONS]);
      assert.equal(res.headers.get("svc-version"), null, "nothing was served, so no version is echoed");
    }
  });
});
