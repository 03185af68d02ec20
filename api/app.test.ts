import { testDatabaseEnv } from "../test/support/db";
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "./config";
import { startService, type RunningService } from "./service";
import { manualClock } from "../relayer/clock";

describe("service skeleton over real HTTP", () => {
  let svc: RunningService;
  const dir = mkdtempSync(join(tmpdir(), "pm-app-"));
  const clock = manualClock(1_800_000_000_123);
  before(async () => {
    svc = await startService(loadConfig({ PORT: "0", DATA_DIR: dir, LOG_LEVEL: "silent", ...testDatabaseEnv() }), { clock });
  });
  after(async () => {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("GET /time answers the clock's epoch ms", async () => {
    const res = await fetch(`${svc.baseUrl}/time`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { serverTime: 1_800_000_000_123 });
  });

  it("an unknown path answers a 404 RFC 9457 problem", async () => {
    const res = await fetch(`${svc.baseUrl}/no/such/thing`);
    assert.equal(res.status, 404);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    const p = (await res.json()) as Record<string, unknown>;
    assert.equal(p.code, "NOT_FOUND");
    assert.equal(p.status, 404);
    assert.match(String(p.type), /\/problems\/NOT_FOUND$/);
    assert.equal(typeof p.title, "string");
    assert.match(String(p.detail), /\/api\/agent\/v1\/no\/such\/thing/);
  });

  it("a known path with another method answers 405 with Allow; the same path with a trailing slash is a 404", async () => {
    const res = await fetch(`${svc.baseUrl}/time`, { method: "DELETE" });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "GET, HEAD");
    const p = (await res.json()) as Record<string, unknown>;
    assert.equal(p.code, "METHOD_NOT_ALLOWED");
    assert.deepEqual(p.allowed, ["GET", "HEAD"]);
    const slash = await fetch(`${svc.baseUrl}/time/`);
    assert.equal(slash.status, 404);
    assert.equal(((await slash.json()) as Record<string, unknown>).code, "NOT_FOUND");
  });
});
