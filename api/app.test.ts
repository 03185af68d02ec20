import { testDatabaseEnv } from "../test/support/db";
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import pino from "pino";
import { z } from "zod";
import { testConfig } from "../test/support/service";
import { startService, type RunningService } from "./service";
import { createApp } from "./app";
import { Registry } from "./registry/registry";
import { defineOperation } from "./registry/types";
import { manualClock } from "../relayer/clock";

type Json = Record<string, unknown>;

describe("service skeleton over real HTTP", () => {
  let svc: RunningService;
  const dir = mkdtempSync(join(tmpdir(), "pm-app-"));
  const clock = manualClock(1_800_000_000_123);
  before(async () => {
    svc = await startService(testConfig(dir, testDatabaseEnv()), { clock });
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
    const p = (await res.json()) as Json;
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
    const p = (await res.json()) as Json;
    assert.equal(p.code, "METHOD_NOT_ALLOWED");
    assert.deepEqual(p.allowed, ["GET", "HEAD"]);
    const slash = await fetch(`${svc.baseUrl}/time/`);
    assert.equal(slash.status, 404);
    assert.equal(((await slash.json()) as Json).code, "NOT_FOUND");
  });

  it("a malformed JSON body is a 400 INVALID_PAYLOAD problem naming the body", async () => {
    const res = await fetch(`${svc.baseUrl}/discover/markets/batch-trading-rules`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"chainId": 31337, "marketAddresses": [',
    });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    const p = (await res.json()) as Json;
    assert.equal(p.code, "INVALID_PAYLOAD");
    assert.equal(p.status, 400);
    assert.equal(p.field, "(body)");
    assert.equal(p.location, "body");
    assert.match(String(p.detail), /^malformed JSON body/);
    assert.ok(res.headers.get("x-request-id"));
  });
});

/** A handler that fails unexpectedly, with a message that must stay in the log. */
const SECRET = "password=hunter2 at /srv/secret/db.ts";
let explosions = 0;
const explode = defineOperation({
  id: "explode",
  method: "POST",
  path: "/test/explode",
  summary: "Always throws (test operation)",
  category: "test",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "write",
  charged: true,
  idempotency: "required",
  request: { body: z.object({ n: z.number().int() }) },
  response: z.object({ ok: z.boolean() }),
  mcpTool: null,
  async handler() {
    explosions += 1;
    throw new Error(SECRET);
  },
});

describe("internal errors over real HTTP", () => {
  let svc: RunningService;
  let server: ServerType;
  let origin: string;
  const lines: Json[] = [];
  const dir = mkdtempSync(join(tmpdir(), "pm-app-err-"));
  before(async () => {
    svc = await startService(testConfig(dir, testDatabaseEnv()), { clock: manualClock(1_800_000_000_000) });
    // A second app on the same service whose log we read, serving a registry with the failing operation.
    const log = pino({ level: "info", base: { svc: "api" } }, { write: (line: string) => void lines.push(JSON.parse(line) as Json) });
    const { app } = createApp({ ...svc.ctx, log }, svc, new Registry([explode]));
    server = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (requestId?: string) =>
    fetch(`${origin}/api/agent/v1/test/explode`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": "boom-1", ...(requestId ? { "x-request-id": requestId } : {}) },
      body: JSON.stringify({ n: 1 }),
    });

  it("answers 500 INTERNAL_ERROR with the request id, leaks neither message nor stack, and logs the error with that id", async () => {
    const res = await post("client-req-42");
    assert.equal(res.status, 500);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    assert.equal(res.headers.get("x-request-id"), "client-req-42");
    const text = await res.text();
    const p = JSON.parse(text) as Json;
    assert.equal(p.code, "INTERNAL_ERROR");
    assert.equal(p.status, 500);
    assert.equal(p.requestId, "client-req-42");
    assert.match(String(p.detail), /client-req-42/);
    for (const leak of ["hunter2", "/srv/secret", "Error:", "    at ", ".ts:"])
      assert.ok(!text.includes(leak), `the body leaks ${JSON.stringify(leak)}: ${text}`);

    const logged = lines.filter((l) => l.msg === "internal error");
    assert.equal(logged.length, 1);
    const [line] = logged;
    assert.equal(line.level, 50, "logged at error");
    assert.equal(line.requestId, "client-req-42");
    assert.equal(line.path, "/api/agent/v1/test/explode");
    const err = line.err as Json;
    assert.equal(err.message, SECRET);
    assert.match(String(err.stack), /app\.test\.ts/, "the stack is in the log");
    // The access line of the same request carries the id too.
    assert.ok(lines.some((l) => l.msg === "request" && l.requestId === "client-req-42" && l.status === 500));
  });

  it("a generated request id is the one in the problem, the header and the log; the failed write is not stored, so a retry runs again", async () => {
    const before = explosions;
    const res = await post();
    assert.equal(res.status, 500);
    const id = res.headers.get("x-request-id");
    assert.match(String(id), /^[0-9a-f-]{36}$/);
    assert.equal(((await res.json()) as Json).requestId, id);
    assert.ok(lines.some((l) => l.msg === "internal error" && l.requestId === id));
    assert.equal(explosions, before + 1, "the same Idempotency-Key ran again: a 5xx is not replayed");
  });
});
