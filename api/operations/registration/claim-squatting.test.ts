/**
 * The claimed-agent path against email squatting and mail flooding (security review, finding 1), over real HTTP:
 * only claimed agents count toward the owner's 3, the limit is checked when the owner claims, an unclaimed agent
 * expires with its link, claim mail is throttled per agent (cooldown) and per recipient (429 + Retry-After), and
 * POST /agents/claim answers only its spec row's codes, idempotently, without an Idempotency-Key.
 */
import { strict as assert } from "node:assert";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startTestService, stopTestService, type Json, type TestService } from "../../../test/support/service";
import { CLAIM_MAIL_COOLDOWN_MS, CLAIM_MAILS_PER_RECIPIENT } from "../../domain/auth/claim-mail-throttle";
import { OPERATIONS } from "../index";

const DAY = 86_400_000;

describe("claimed-agent path: squatting and mail throttle", () => {
  let t: TestService;
  before(async () => {
    // No markets: this suite registers and claims only.
    t = await startTestService({ RATE_LIMIT_REGISTER_PER_MINUTE: "1000", SEED_DEMO_MARKETS: "false" });
  });
  after(async () => stopTestService(t));

  const call = async (method: string, path: string, opts: { body?: unknown; key?: string; idem?: string | null; root?: boolean } = {}) => {
    const headers: Record<string, string> = {};
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    if (opts.idem !== null && method !== "GET") headers["idempotency-key"] = opts.idem ?? randomUUID();
    const url = opts.root ? `${new URL(t.svc.baseUrl).origin}${path}` : `${t.svc.baseUrl}${path}`;
    const res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
  };
  const register = async (name: string, ownerEmail: string) => {
    const account = privateKeyToAccount(generatePrivateKey());
    const nonce = (await call("POST", "/api/auth/nonce", { root: true })).json.nonce as string;
    const signedMessage = `svc-register:${account.address.toLowerCase()}:${nonce}`;
    return call("POST", "/register", {
      body: { name, walletAddress: account.address, signedMessage, walletSignature: await account.signMessage({ message: signedMessage }), ownerEmail },
    });
  };
  const lastToken = async (to: string): Promise<string> => {
    const [row] = await t.svc.ctx.db.query<{ body: string }>(`SELECT body FROM api_mail_outbox WHERE to_address = $1 ORDER BY id DESC LIMIT 1`, [to]);
    return /(clm_[A-Za-z0-9_-]+)/.exec(row!.body)![1]!;
  };
  const claim = (token: string, idem: string | null = null) => call("POST", "/agents/claim", { body: { token }, idem });
  const forbidden = (r: { status: number; json: Json }, reason: string) => {
    assert.equal(r.status, 403, JSON.stringify(r.json));
    assert.equal(r.json.code, "FORBIDDEN");
    assert.equal(r.json.reason, reason);
  };

  it("three strangers naming the victim's address do not lock the victim out: only claims count", async () => {
    const victim = "victim@example.com";
    for (const i of [1, 2, 3]) assert.equal((await register(`squat-${i}`, victim)).status, 201);
    const own = await register("victims-own", victim);
    assert.equal(own.status, 201, JSON.stringify(own.json));
    const claimed = await claim(await lastToken(victim));
    assert.equal(claimed.status, 200, JSON.stringify(claimed.json));
    assert.equal(claimed.json.name, "victims-own");
  });

  it("the limit holds where the owner acts: a 4th claim is 403 OWNER_AGENT_LIMIT, then a 5th registration 409", async () => {
    const owner = "busy-owner@example.com";
    const tokens: string[] = [];
    for (const i of [1, 2, 3, 4]) {
      assert.equal((await register(`busy-${i}`, owner)).status, 201);
      tokens.push(await lastToken(owner));
    }
    for (const tk of tokens.slice(0, 3)) assert.equal((await claim(tk)).status, 200);
    forbidden(await claim(tokens[3]!), "OWNER_AGENT_LIMIT");
    const fifth = await register("busy-5", owner);
    assert.equal(fifth.status, 409);
    assert.equal(fifth.json.reason, "OWNER_AGENT_LIMIT");
  });

  it("POST /agents/claim: no Idempotency-Key needed, the same link answers the same claim; unknown and expired links are 403", async () => {
    const owner = "codes@example.com";
    assert.equal((await register("codes-1", owner)).status, 201);
    const token = await lastToken(owner);
    const first = await claim(token);
    assert.equal(first.status, 200, JSON.stringify(first.json));
    const again = await claim(token);
    assert.deepEqual([again.status, again.json], [200, first.json]);
    forbidden(await claim(`clm_${"A".repeat(43)}`), "UNKNOWN");
    assert.equal((await register("codes-2", owner)).status, 201);
    const stale = await lastToken(owner);
    t.clock.advance(DAY + 1);
    forbidden(await claim(stale), "EXPIRED");
    const bad = await call("POST", "/agents/claim", { body: { token: 7 } });
    assert.equal(bad.status, 400);
  });

  it("an unclaimed agent expires with its link; a resend extends it; a claimed one never expires", async () => {
    const owner = "expiry@example.com";
    const doomed = await register("doomed", owner);
    const kept = await register("kept", owner);
    const keptToken = await lastToken(owner);
    assert.ok(doomed.json.expiresAt, "the claim-path registration says when it expires");
    t.clock.advance(DAY - 120_000);
    const resent = await call("POST", "/agents/me/claim-link", { key: kept.json.apiKey });
    assert.equal(resent.status, 202, JSON.stringify(resent.json));
    t.clock.advance(240_000);
    const gone = await call("GET", "/me", { key: doomed.json.apiKey });
    assert.equal(gone.status, 401);
    assert.match(gone.json.detail, /expired unclaimed/);
    assert.equal((await call("GET", "/me", { key: kept.json.apiKey })).status, 200, "the resend extended it");
    forbidden(await claim(keptToken), "EXPIRED");
    assert.equal((await claim(await lastToken(owner))).status, 200);
    t.clock.advance(3 * DAY);
    assert.equal((await call("GET", "/me", { key: kept.json.apiKey })).status, 200, "claimed: no expiry");
  });

  it("claim mail is throttled: one per agent per cooldown, a few per recipient per hour (429 + Retry-After)", async () => {
    const owner = "flooded@example.com";
    const agent = await register("flooder", owner);
    const soon = await call("POST", "/agents/me/claim-link", { key: agent.json.apiKey });
    assert.equal(soon.status, 429, JSON.stringify(soon.json));
    assert.equal(soon.json.code, "RATE_LIMITED");
    assert.equal(soon.json.reason, "CLAIM_MAIL_COOLDOWN");
    assert.equal(soon.headers.get("retry-after"), String(CLAIM_MAIL_COOLDOWN_MS / 1000));
    let sent = 1;
    for (let i = 0; i < 30; i++) {
      t.clock.advance(CLAIM_MAIL_COOLDOWN_MS);
      const r = await call("POST", "/agents/me/claim-link", { key: agent.json.apiKey });
      if (r.status === 202) {
        sent += 1;
        continue;
      }
      assert.equal(r.status, 429, JSON.stringify(r.json));
      assert.equal(r.json.reason, "CLAIM_MAIL_RECIPIENT_LIMIT");
      assert.ok(Number(r.headers.get("retry-after")) > 60, "waits for the oldest mail to age out of the hour");
      break;
    }
    assert.equal(sent, CLAIM_MAILS_PER_RECIPIENT);
    const [{ n }] = await t.svc.ctx.db.query<{ n: string }>(`SELECT count(*) AS n FROM api_mail_outbox WHERE to_address = $1`, [owner]);
    assert.equal(Number(n), CLAIM_MAILS_PER_RECIPIENT, "no more mail than the limit reached the address");
    const viaRegister = await register("flooder-2", owner);
    assert.equal(viaRegister.status, 429, "registrations naming the address count too");
    t.clock.advance(60 * 60_000);
    assert.equal((await call("POST", "/agents/me/claim-link", { key: agent.json.apiKey })).status, 202, "after the hour");
  });

  it("the claim-link resend is an MCP tool", () => {
    assert.equal(OPERATIONS.find((o) => o.id === "resendClaimLink")?.mcpTool, "svc_resend_claim_link");
  });
});
