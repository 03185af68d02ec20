/**
 * The anonymous path's Turnstile check (issue 19) over real HTTP: the service's default verifier posts to the
 * siteverify URL, here a local stand-in for Cloudflare's endpoint (the only part not real), which checks the secret
 * and the token. A good token registers (201); a bad one is a 400 INVALID_PAYLOAD on turnstileToken; an unreachable
 * siteverify is a 503 with Retry-After; neither refusal creates an agent. GET /mcp-discovery names the site key.
 */
import { strict as assert } from "node:assert";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { startTestService, stopTestService, type Json, type TestService } from "../../../test/support/service";
import { freePort } from "../../../test/support/ports";
import { siteverifyTurnstile } from "../../domain/auth/turnstile";

const SECRET = "0x4AAAAAAA-test-secret";
const GOOD = "token-from-a-solved-widget";

describe("POST /register, anonymous path: Turnstile through siteverify", () => {
  let t: TestService;
  let standIn: Server;
  const seen: URLSearchParams[] = [];
  before(async () => {
    standIn = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const form = new URLSearchParams(body);
        seen.push(form);
        const ok = req.method === "POST" && form.get("secret") === SECRET && form.get("response") === GOOD;
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(ok ? { success: true, "error-codes": [] } : { success: false, "error-codes": ["invalid-input-response"] }));
      });
    });
    await new Promise<void>((r) => standIn.listen(0, "127.0.0.1", r));
    t = await startTestService({
      REGISTRATION_ANONYMOUS_OPEN: "true",
      TURNSTILE_SECRET_KEY: SECRET,
      TURNSTILE_SITE_KEY: "0x4AAAAAAA-site-key",
      TURNSTILE_VERIFY_URL: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/turnstile/v0/siteverify`,
    });
  });
  after(async () => {
    await stopTestService(t);
    standIn.close();
  });

  const register = async (turnstileToken: string) => {
    const res = await fetch(`${t.svc.baseUrl}/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ name: `anon-${randomUUID().slice(0, 8)}`, turnstileToken }),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
  };
  const agents = async () => Number((await t.svc.ctx.db.query<{ n: string }>("SELECT count(*) AS n FROM api_agents"))[0]!.n);

  it("registers with a token siteverify accepts, sending it the secret, the token and the caller's address", async () => {
    const res = await register(GOOD);
    assert.equal(res.status, 201, JSON.stringify(res.json));
    assert.equal(res.json.status, "trial");
    const form = seen.at(-1)!;
    assert.equal(form.get("secret"), SECRET);
    assert.equal(form.get("response"), GOOD);
    assert.equal(form.get("remoteip"), "127.0.0.1");
  });

  it("refuses a token siteverify rejects with 400 INVALID_PAYLOAD on turnstileToken, creating nothing", async () => {
    const before = await agents();
    const res = await register("forged-token");
    assert.equal(res.status, 400);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    assert.equal(res.json.code, "INVALID_PAYLOAD");
    assert.equal(res.json.field, "turnstileToken");
    assert.deepEqual(res.json.turnstileErrors, ["invalid-input-response"]);
    assert.equal(await agents(), before);
  });

  it("answers 503 with Retry-After when siteverify cannot be reached, creating nothing", async () => {
    const closed = `http://127.0.0.1:${await freePort()}/siteverify`;
    assert.deepEqual((await siteverifyTurnstile(SECRET, closed).verify(GOOD, undefined)).ok, "unavailable");
    const saved = t.svc.ctx.config.TURNSTILE_VERIFY_URL;
    (t.svc.ctx.config as { TURNSTILE_VERIFY_URL: string }).TURNSTILE_VERIFY_URL = closed;
    try {
      const before = await agents();
      const res = await register(GOOD);
      assert.equal(res.status, 503, JSON.stringify(res.json));
      assert.equal(res.json.code, "SERVICE_UNAVAILABLE");
      assert.equal(res.headers.get("retry-after"), "5");
      assert.equal(await agents(), before);
    } finally {
      (t.svc.ctx.config as { TURNSTILE_VERIFY_URL: string }).TURNSTILE_VERIFY_URL = saved;
    }
  });

  it("names the site key in GET /mcp-discovery", async () => {
    const d = (await (await fetch(`${t.svc.baseUrl}/mcp-discovery`)).json()) as Json;
    assert.equal(d.registration.turnstileSiteKey, "0x4AAAAAAA-site-key");
  });
});
