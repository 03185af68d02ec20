import { strict as assert } from "node:assert";
import { statSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Hono } from "hono";
import { apiClient, startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { defineAdminRoutes, adminJson } from "./define";
import { mountAdmin } from "./mount";

type Json = Record<string, any>;

async function admin(t: TestService, method: string, path: string, opts: { token?: string | null; body?: unknown } = {}) {
  const token = opts.token === undefined ? readFileSync(join(t.dir, "admin-token"), "utf8").trim() : opts.token;
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`http://127.0.0.1:${t.svc.port}/admin/v1${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: (text ? JSON.parse(text) : {}) as Json };
}

describe("admin API /admin/v1 over HTTP", () => {
  let t: TestService;
  before(async () => {
    t = await startTestService({ INDEXER_ENABLED: "false", SEED_DEMO_MARKETS: "false" });
  });
  after(() => stopTestService(t));

  it("generates the operator credential into DATA_DIR/admin-token with mode 0600", () => {
    const file = join(t.dir, "admin-token");
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.match(readFileSync(file, "utf8").trim(), /^adm_[A-Za-z0-9_-]{43}$/);
  });

  it("refuses no credential, a wrong one and an agent key with 401 problems, unknown paths included", async () => {
    const made = await admin(t, "POST", "/agents", { body: { name: "key-holder" } });
    assert.equal(made.status, 201);
    for (const token of [null, "adm_wrong", made.json.apiKey as string]) {
      for (const path of ["/status", "/no-such-route"]) {
        const r = await admin(t, "GET", path, { token });
        assert.equal(r.status, 401, `${token} ${path}`);
        assert.equal(r.headers.get("content-type"), "application/problem+json");
        assert.equal(r.json.code, "AUTH_REQUIRED");
        assert.equal(r.headers.get("www-authenticate"), 'Bearer realm="admin"');
      }
    }
    assert.match((await admin(t, "GET", "/status", { token: made.json.apiKey })).json.detail, /agent API key is not the operator credential/);
    const unknown = await admin(t, "GET", "/no-such-route");
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, "NOT_FOUND");
  });

  it("an incident throttle lowers an agent's ceilings, GET /me says overridden, a 429 names it; lifting or its end restores them", async () => {
    const made = await admin(t, "POST", "/agents", { body: { name: "noisy-bot" } });
    const key = made.json.apiKey as string;
    const me = async () => ((await (await fetch(`${t.svc.baseUrl}/me`, { headers: { authorization: `Bearer ${key}` } })).json()) as Json).rateLimits as Json;
    const read = () => fetch(`${t.svc.baseUrl}/fills/allowance`, { headers: { authorization: `Bearer ${key}` } });
    const normal = await me();
    assert.equal(normal.overridden, false);

    const bad = await admin(t, "PUT", `/agents/${made.json.agentId}/rate-throttle`, { body: { percent: 0, reason: "x" } });
    assert.equal(bad.status, 400);
    assert.equal((await me()).overridden, false, "a refused throttle changes nothing");
    const unknown = await admin(t, "PUT", "/agents/00000000-0000-4000-8000-000000000000/rate-throttle", { body: { percent: 10, reason: "x" } });
    assert.equal(unknown.json.code, "AGENT_NOT_FOUND");

    const set = await admin(t, "PUT", `/agents/${made.json.agentId}/rate-throttle`, { body: { percent: 1, reason: "incident 42: runaway loop", minutes: 10 } });
    assert.equal(set.status, 200, JSON.stringify(set.json));
    assert.equal(set.json.rateThrottle.percent, 1);
    const low = await me();
    assert.equal(low.overridden, true);
    assert.equal(low.readPerMinute, Math.max(1, Math.floor(normal.readPerMinute / 100)));
    assert.equal(low.writePerMinute, Math.max(1, Math.floor(normal.writePerMinute / 100)));
    const first = await read();
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("ratelimit-limit"), String(low.readPerMinute));
    let refused: Response | undefined;
    for (let i = 0; i < low.readPerMinute + 1 && !refused; i++) {
      const r = await read();
      if (r.status === 429) refused = r;
    }
    assert.ok(refused, "the lowered read ceiling is enforced");
    const problem = (await refused.json()) as Json;
    assert.equal(problem.code, "RATE_LIMITED");
    assert.match(problem.detail, /lowered to 1% by the operator \(incident 42: runaway loop\)/);

    t.clock.advance(10 * 60_000 + 1); // the throttle's time is up
    assert.equal((await me()).overridden, false);
    assert.equal((await me()).readPerMinute, normal.readPerMinute);

    await admin(t, "PUT", `/agents/${made.json.agentId}/rate-throttle`, { body: { percent: 50, reason: "again" } });
    assert.equal((await me()).overridden, true);
    const lifted = await admin(t, "DELETE", `/agents/${made.json.agentId}/rate-throttle`);
    assert.deepEqual(lifted.json, { agentId: made.json.agentId, rateThrottle: null });
    assert.deepEqual(await me(), normal);
  });

  it("creates an agent whose key works on the agent API; bad bodies are INVALID_PAYLOAD and change nothing", async () => {
    const made = await admin(t, "POST", "/agents", { body: { name: "ops-bot", tier: "propose" } });
    assert.equal(made.status, 201);
    assert.equal(made.json.tier, "propose");
    const me = await apiClient(t, made.json.apiKey)("GET", "/me");
    assert.equal(me.status, 200);
    assert.equal(me.json.name ?? me.json.agent?.name, "ops-bot");
    const taken = await admin(t, "POST", "/agents", { body: { name: "OPS-BOT" } });
    assert.equal(taken.json.code, "NAME_TAKEN");
    for (const body of [{ name: "" }, { name: "x", tier: "god" }, { name: "x", extra: 1 }, "{not json"]) {
      const r = await admin(t, "POST", "/agents", { body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.code, "INVALID_PAYLOAD");
    }
    assert.deepEqual([...(await t.svc.ctx.db.query(`SELECT id FROM api_agents WHERE name_key IN ('x', '')`))], []);
  });

  it("grants and revokes research, lists mail, and reports its status", async () => {
    const made = await admin(t, "POST", "/agents", { body: { name: "research-bot" } });
    assert.deepEqual((await admin(t, "PUT", `/agents/${made.json.agentId}/research`)).json, { agentId: made.json.agentId, researchProducer: true });
    assert.deepEqual((await admin(t, "DELETE", `/agents/${made.json.agentId}/research`)).json, { agentId: made.json.agentId, researchProducer: false });
    assert.equal((await admin(t, "PUT", "/agents/00000000-0000-4000-8000-000000000000/research")).json.code, "AGENT_NOT_FOUND");
    assert.equal((await admin(t, "PUT", "/agents/nope/research")).json.code, "INVALID_PAYLOAD");
    await t.svc.ctx.db.query(`INSERT INTO api_mail_outbox (to_address, subject, body, created_at) VALUES ('o@example.com', 'Hello', 'b', 1)`);
    const mail = await admin(t, "GET", "/mail?limit=5");
    assert.equal(mail.json.mails[0].to, "o@example.com");
    assert.equal((await admin(t, "GET", "/mail?limit=0")).json.code, "INVALID_PAYLOAD");
    const status = await admin(t, "GET", "/status");
    assert.equal(status.json.chain.local, true);
    assert.equal(status.json.now, t.clock.now());
    assert.ok(status.json.modules.includes("agents"));
  });

  it("is in neither openapi.json nor the MCP tools", async () => {
    const doc = (await (await fetch(`http://127.0.0.1:${t.svc.port}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.ok(Object.keys(doc.paths).length > 10);
    assert.deepEqual(
      Object.keys(doc.paths).filter((p) => p.includes("admin")),
      [],
    );
    assert.equal(
      t.svc.registry.operations.some((op) => op.path.includes("admin")),
      false,
    );
  });
});

describe("admin route modules", () => {
  it("mount behind the credential; a module whose enabled() is false is absent", async () => {
    const t = await startTestService({ INDEXER_ENABLED: "false", SEED_DEMO_MARKETS: "false", ADMIN_TOKEN: "adm_test_token_of_enough_length_0123" });
    try {
      const app = new Hono();
      const on = defineAdminRoutes({ name: "on", mount: (r) => r.get("/on", (c) => adminJson(c, { on: true })) });
      const off = defineAdminRoutes({ name: "off", enabled: () => false, mount: (r) => r.get("/off", (c) => adminJson(c, { off: true })) });
      const cred = mountAdmin(app, t.svc.ctx, t.svc.services, [on, off]);
      assert.deepEqual({ source: cred.source, file: cred.file }, { source: "env", file: null });
      const call = (path: string, token = "adm_test_token_of_enough_length_0123") =>
        app.request(`/admin/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
      assert.deepEqual(await (await call("/on")).json(), { on: true });
      assert.equal((await call("/off")).status, 404);
      assert.equal((await call("/on", "adm_other_token_of_enough_length_01")).status, 401);
    } finally {
      await stopTestService(t);
    }
  });
});
