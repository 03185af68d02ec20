/**
 * Identity over real HTTP against startService: wallet-proof registration (real EIP-191 signatures), claim flow,
 * /me, key rotation and recovery, idempotency and rate-limit behaviour, closed and opened registration paths.
 */
import { createHash } from "node:crypto";
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { CLAIM_UNLOCKS, GRANTS } from "../../domain/auth/scopes";
import { TRADE_DEFAULTS } from "../../domain/trading/trade-defaults";
import { derivedLedgerAccount } from "../../domain/auth/ledger-account";
import { nonceSecret, nonceSignatureValid } from "../../domain/auth/wallet-proof/nonces";
import { REDACTED } from "../../transports/middleware/idempotency";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The shared test service (test/support/service.ts): a manual clock, its own data directory or schema. */
type Harness = TestService;

function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  return startTestService(env);
}

function stopHarness(h: Harness): Promise<void> {
  return stopTestService(h);
}

function client(h: Harness) {
  const call = async (method: string, path: string, opts: { body?: unknown; key?: string; idem?: string | null; root?: boolean } = {}) => {
    const headers: Record<string, string> = {};
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    if (opts.idem !== null && method !== "GET") headers["idempotency-key"] = opts.idem ?? randomUUID();
    const url = opts.root ? `${new URL(h.svc.baseUrl).origin}${path}` : `${h.svc.baseUrl}${path}`;
    const res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    return { res, status: res.status, json: (await res.json()) as Json };
  };
  const nonce = async (): Promise<string> => {
    const r = await call("POST", "/api/auth/nonce", { root: true });
    assert.equal(r.status, 200);
    return r.json.nonce as string;
  };
  const registerBody = async (account: PrivateKeyAccount, name: string, extra: Json = {}): Promise<Json> => {
    const signedMessage = `svc-register:${account.address.toLowerCase()}:${await nonce()}`;
    return { name, walletAddress: account.address, signedMessage, walletSignature: await account.signMessage({ message: signedMessage }), ...extra };
  };
  const lastMailTo = async (to: string): Promise<string> => {
    const rows = await h.svc.ctx.db.query<{ body: string }>(`SELECT body FROM api_mail_outbox WHERE to_address = $1 ORDER BY id DESC LIMIT 1`, [to]);
    assert.ok(rows[0], `a mail to ${to}`);
    return rows[0].body;
  };
  return { call, nonce, registerBody, lastMailTo };
}

const tokenIn = (mail: string, prefix: "clm_" | "vfy_") => {
  const m = new RegExp(`(${prefix}[A-Za-z0-9_-]+)`).exec(mail);
  assert.ok(m, `a ${prefix} token in the mail`);
  return m[1];
};

describe("identity API with the default configuration (claimed-agent path open)", () => {
  let h: Harness;
  let c: ReturnType<typeof client>;
  const owner = "owner@example.com";
  const alice = privateKeyToAccount(generatePrivateKey());
  let aliceKey = "";
  let aliceKeyId = "";
  before(async () => {
    // This suite registers more agents per minute than the default per-IP registration window admits.
    h = await startHarness({ RATE_LIMIT_REGISTER_PER_MINUTE: "100" });
    c = client(h);
  });
  after(() => stopHarness(h));

  it("POST /api/auth/nonce answers a fresh nonce and our HMAC of it", async () => {
    const a = await c.call("POST", "/api/auth/nonce", { root: true });
    const b = await c.call("POST", "/api/auth/nonce", { root: true });
    assert.equal(a.status, 200);
    assert.match(a.json.nonce, /^[0-9a-f]{32}$/);
    assert.notEqual(a.json.nonce, b.json.nonce);
    const secret = await nonceSecret(h.svc.ctx.db, 0);
    assert.ok(nonceSignatureValid(secret, a.json.nonce, a.json.signedNonce));
    assert.ok(!nonceSignatureValid(secret, b.json.nonce, a.json.signedNonce));
    assert.equal(a.json.ttlSeconds, 300);
  });

  it("registers a claimed agent with a real EIP-191 signature; key shown once, claim link mailed", async () => {
    const idem = randomUUID();
    const body = await c.registerBody(alice, "Alice Bot", { ownerEmail: owner });
    const r = await c.call("POST", "/register", { body, idem });
    assert.equal(r.status, 201, JSON.stringify(r.json));
    assert.match(r.json.apiKey, /^svc_[A-Za-z0-9_-]{43}$/);
    assert.equal(r.json.status, "claim-pending");
    assert.equal(r.json.tier, "read-only");
    assert.deepEqual(r.json.scopes, [...GRANTS.claim]);
    assert.equal(r.json.walletAddress, alice.address.toLowerCase());
    assert.equal(r.json.ledgerAccount, alice.address.toLowerCase());
    assert.equal(r.json.claim.ownerEmail, owner);
    assert.equal(r.json.claim.claimLinkExpiresAt, new Date(h.clock.now() + 86_400_000).toISOString());
    assert.ok(r.res.headers.get("ratelimit-limit"), "a charged write shows its window");
    aliceKey = r.json.apiKey;
    aliceKeyId = r.json.keyId;
    const stored = await h.svc.ctx.db.query<{ secret_hash: string }>(`SELECT secret_hash FROM api_keys WHERE id = $1`, [aliceKeyId]);
    assert.match(stored[0].secret_hash, /^[0-9a-f]{64}$/);
    assert.ok(!stored[0].secret_hash.includes(aliceKey.slice(4)));
    assert.match(await c.lastMailTo(owner), /Alice Bot[\s\S]*clm_/);

    // Same key, same body: replayed, with the raw key redacted; same key, other body: 409.
    const replay = await c.call("POST", "/register", { body, idem });
    assert.equal(replay.status, 201);
    assert.equal(replay.res.headers.get("idempotent-replayed"), "true");
    assert.equal(replay.json.apiKey, REDACTED);
    assert.equal(replay.json.agentId, r.json.agentId);
    const changed = await c.call("POST", "/register", { body: { ...body, name: "Alice Two" }, idem });
    assert.equal(changed.status, 409);
    assert.equal(changed.json.code, "IDEMPOTENCY_KEY_REUSED");
  });

  it("refuses a reused nonce, a bad signature and a message naming another wallet", async () => {
    const body = await c.registerBody(alice, "Alice Again", { ownerEmail: owner });
    // The registration above spent its nonce: a new agent with a proof over it is refused.
    const first = await c.call("POST", "/register", { body: { ...body, name: "Reuse One" } });
    assert.equal(first.status, 409, "wallet already registered (nonce left unspent by the refused insert)");
    assert.equal(first.json.code, "AGENT_ALREADY_EXISTS");
    const bob = privateKeyToAccount(generatePrivateKey());
    const bobBody = await c.registerBody(bob, "Bob Bot", { ownerEmail: owner });
    assert.equal((await c.call("POST", "/register", { body: bobBody })).status, 201);
    const reused = await c.call("POST", "/register", { body: { ...bobBody, name: "Bob Reused" } });
    assert.equal(reused.status, 401);
    assert.equal(reused.json.code, "WALLET_AUTH_INVALID");
    assert.match(reused.json.detail, /already used/);

    const carol = privateKeyToAccount(generatePrivateKey());
    const carolBody = await c.registerBody(carol, "Carol Bot", { ownerEmail: "carol-owner@example.com" });
    const forged = await c.call("POST", "/register", { body: { ...carolBody, walletSignature: await bob.signMessage({ message: carolBody.signedMessage }) } });
    assert.equal(forged.status, 401);
    assert.equal(forged.json.code, "WALLET_AUTH_INVALID");
    const mismatch = await c.call("POST", "/register", { body: { ...carolBody, walletAddress: bob.address } });
    assert.equal(mismatch.status, 403);
    assert.equal(mismatch.json.code, "WALLET_ADDRESS_MISMATCH");
    // The refused attempts left the nonce unspent: the honest request still succeeds.
    assert.equal((await c.call("POST", "/register", { body: carolBody })).status, 201);
    const taken = await c.call("POST", "/register", {
      body: await c.registerBody(privateKeyToAccount(generatePrivateKey()), "carol BOT", { ownerEmail: "x@example.com" }),
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.json.code, "NAME_TAKEN");
  });

  it("a nonce older than 300 s is refused", async () => {
    const body = await c.registerBody(privateKeyToAccount(generatePrivateKey()), "Slow Signer", { ownerEmail: "slow@example.com" });
    h.clock.advance(300_000);
    const late = await c.call("POST", "/register", { body });
    assert.equal(late.status, 401);
    assert.equal(late.json.code, "WALLET_AUTH_INVALID");
    assert.match(late.json.detail, /expired/);
  });

  it("counts only claimed agents toward the owner's 3 (claim-squatting.test.ts has the whole rule)", async () => {
    // alice and bob already name `owner`, unclaimed: a third and a fourth registration naming it still pass.
    assert.equal(
      (await c.call("POST", "/register", { body: await c.registerBody(privateKeyToAccount(generatePrivateKey()), "Third", { ownerEmail: owner }) })).status,
      201,
    );
    const fourth = await c.call("POST", "/register", {
      body: await c.registerBody(privateKeyToAccount(generatePrivateKey()), "Fourth", { ownerEmail: "OWNER@example.com" }),
    });
    assert.equal(fourth.status, 201, JSON.stringify(fourth.json));
  });

  it("answers 400 for a missing Idempotency-Key and for bad bodies", async () => {
    const noKey = await c.call("POST", "/register", { body: { name: "x", turnstileToken: "t" }, idem: null });
    assert.equal(noKey.status, 400);
    assert.equal(noKey.json.code, "IDEMPOTENCY_KEY_REQUIRED");
    const bad = await c.call("POST", "/register", { body: { name: "", walletAddress: "0x12" } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, "INVALID_PAYLOAD");
    const owned = await c.call("POST", "/register", { body: { name: "n", ownerEmail: owner } });
    assert.equal(owned.status, 400);
    assert.equal(owned.json.field, "walletAddress");
  });

  it("closed paths answer 403 FEATURE_DISABLED with reason AGENT_REGISTRATION_CLOSED and the path", async () => {
    const cases: [string, Json][] = [
      ["wallet", await c.registerBody(privateKeyToAccount(generatePrivateKey()), "Wally")],
      ["email", { name: "Emily", email: "emily@example.com" }],
      ["anonymous", { name: "Anon", turnstileToken: "tok" }],
    ];
    for (const [path, body] of cases) {
      const r = await c.call("POST", "/register", { body });
      assert.equal(r.status, 403, path);
      assert.equal(r.json.code, "FEATURE_DISABLED");
      assert.equal(r.json.reason, "AGENT_REGISTRATION_CLOSED");
      assert.equal(r.json.path, path);
    }
    const d = await c.call("GET", "/mcp-discovery");
    assert.equal(d.status, 200);
    assert.equal(d.json.registration.claim.status, "open");
    assert.deepEqual(
      d.json.registration.paths.map((p: Json) => [p.kind, p.status]),
      [
        ["email", "closed"],
        ["wallet", "closed"],
        ["anonymous", "closed"],
      ],
    );
    assert.deepEqual(d.json.registration.claim.unlocksScopes, [...CLAIM_UNLOCKS]);
    assert.equal(d.json.registration.paths.find((p: Json) => p.kind === "anonymous").ttlHours, 24);
  });

  it("GET /me: uncharged, every required field; a missing key is 401 AUTH_REQUIRED", async () => {
    const me = await c.call("GET", "/me", { key: aliceKey });
    assert.equal(me.status, 200, JSON.stringify(me.json));
    assert.equal(me.res.headers.get("ratelimit-limit"), null, "GET /me is uncharged: no RateLimit headers");
    for (const f of [
      "id",
      "kind",
      "name",
      "walletAddress",
      "email",
      "emailVerified",
      "tier",
      "scopes",
      "capabilities",
      "identityVerified",
      "chainBindings",
      "rateLimits",
      "dataPlane",
      "reputation",
      "environment",
      "version",
      "links",
    ]) {
      assert.ok(f in me.json, `GET /me has ${f}`);
    }
    assert.equal(me.json.kind, "agent");
    assert.equal(me.json.name, "Alice Bot");
    assert.equal(me.json.ledgerAccount, alice.address.toLowerCase());
    assert.equal(me.json.rateLimits.readPerMinute, 600);
    assert.equal(me.json.rateLimits.tier, me.json.tier, "an ordinary key reads its authorization tier in both");
    assert.ok(me.json.rateLimits.unchargedReads.includes("GET /me"));
    assert.equal(me.json.environment, "test");
    assert.equal(me.json.fills.enabled, true, "the venue's engine counts fills");
    assert.equal(me.json.fills.freeUsed, 0);
    assert.equal(me.json.fills.remaining, me.json.fills.freePerPeriod);
    assert.equal(me.json.claim.status, "pending");
    assert.match(me.json.links.rotateKey, new RegExp(`/keys/${aliceKeyId}/rotate$`));
    const names = me.json.capabilities.map((x: Json) => x.name);
    assert.ok(names.includes("GET /me") && names.includes("POST /keys/{keyId}/rotate"));
    assert.ok(me.json.capabilities.every((x: Json) => x.surface === "agent"));

    const none = await c.call("GET", "/me");
    assert.equal(none.status, 401);
    assert.equal(none.json.code, "AUTH_REQUIRED");
    assert.match(none.res.headers.get("www-authenticate") ?? "", /Bearer/);
    const unknown = await c.call("GET", "/me", { key: "svc_nope" });
    assert.equal(unknown.status, 401);

    const fills = await c.call("GET", "/fills/allowance", { key: aliceKey });
    assert.equal(fills.status, 200);
    assert.equal(fills.res.headers.get("ratelimit-limit"), "600", "a charged read carries RateLimit headers");
    assert.equal(fills.res.headers.get("ratelimit-remaining"), "599");
    assert.ok(Number(fills.res.headers.get("ratelimit-reset")) > h.clock.now() / 1000);
  });

  it("discovery documents: auth-discovery templates and trade defaults, credentials discovery", async () => {
    const d = await c.call("GET", "/auth-discovery");
    assert.equal(d.status, 200);
    assert.deepEqual(d.json.tradeDefaults, TRADE_DEFAULTS);
    assert.deepEqual(d.json.tradeDefaults, { slippageBpsDefault: 100, slippageBpsMax: 1000, recommendedRefreshMs: 2000 });
    assert.deepEqual(
      d.json.walletProof.templates.map((t: Json) => t.template),
      [
        "svc-register:{walletAddressLowercase}:{nonce}",
        "svc-api-key-recovery:{walletLowercase}:{nonce}",
        "svc-bind-wallet:{agentId}:{walletAddressLowercase}:{nonce}",
      ],
    );
    assert.match(d.json.nonceEndpoint, /\/api\/auth\/nonce$/);
    const a = await c.call("GET", "/auth");
    assert.equal(a.status, 200);
    assert.equal(a.json.header, "Authorization: Bearer <API_KEY>");
  });

  it("a SIWE message signed with one of our nonces verifies once", async () => {
    const origin = new URL(h.svc.baseUrl).origin;
    const message = createSiweMessage({
      domain: new URL(origin).host,
      address: alice.address,
      uri: origin,
      version: "1",
      chainId: 8453,
      nonce: await c.nonce(),
      issuedAt: new Date(h.clock.now()),
    });
    const signature = await alice.signMessage({ message });
    const ok = await c.call("POST", "/api/auth/verify", { root: true, body: { message, signature } });
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
    assert.equal(ok.json.address, alice.address.toLowerCase());
    const again = await c.call("POST", "/api/auth/verify", { root: true, body: { message, signature } });
    assert.equal(again.status, 401);
  });

  it("claim flow: preview, claim unlocks execute, the same link claims idempotently; resend replaces the link; expiry is 410", async () => {
    const token = tokenIn(await c.lastMailTo(owner), "clm_");
    const noToken = await c.call("GET", "/agents/claim");
    assert.equal(noToken.status, 400);
    assert.equal(noToken.json.code, "INVALID_PAYLOAD");
    assert.equal(noToken.json.field, "token");
    // The newest mail to the owner is for the fourth agent; find Alice's through the resend route instead (after the
    // per-agent cooldown of claim mail).
    h.clock.advance(60_000);
    const resent = await c.call("POST", "/agents/me/claim-link", { key: aliceKey });
    assert.equal(resent.status, 202);
    const aliceToken = tokenIn(await c.lastMailTo(owner), "clm_");
    assert.notEqual(aliceToken, token);
    const preview = await c.call("GET", `/agents/claim?token=${aliceToken}`);
    assert.equal(preview.status, 200);
    assert.equal(preview.json.name, "Alice Bot");
    assert.equal(preview.json.status, "pending");

    const claimed = await c.call("POST", "/agents/claim", { body: { token: aliceToken } });
    assert.equal(claimed.status, 200, JSON.stringify(claimed.json));
    assert.equal(claimed.json.status, "claimed");
    assert.equal(claimed.json.tier, "execute");
    for (const s of CLAIM_UNLOCKS) assert.ok(claimed.json.scopes.includes(s), s);
    const me = await c.call("GET", "/me", { key: aliceKey });
    assert.equal(me.json.tier, "execute");
    assert.equal(me.json.claim.status, "claimed");
    // Idempotent (spec): the same link, with a new Idempotency-Key, answers the same claim and grants nothing more.
    const twice = await c.call("POST", "/agents/claim", { body: { token: aliceToken } });
    assert.equal(twice.status, 200, JSON.stringify(twice.json));
    assert.deepEqual({ ...twice.json }, { ...claimed.json });
    assert.equal((await c.call("GET", "/me", { key: aliceKey })).json.tier, "execute");
    assert.equal((await c.call("POST", "/agents/me/claim-link", { key: aliceKey })).json.reason, "ALREADY_CLAIMED");

    // The fourth agent's link (the one mailed last before the resend) expires after 24 h.
    h.clock.advance(86_400_000 + 1);
    const late = await c.call("GET", `/agents/claim?token=${token}`);
    assert.equal(late.status, 410);
    assert.equal(late.json.reason, "EXPIRED");
  });

  it("GET /agents/{agentId}/calls: the public record of an agent's calls, newest first, paged, without their content", async () => {
    const agentId = (await c.call("GET", "/me", { key: aliceKey })).json.id as string;
    const idem = `secret-idem-${randomUUID()}`;
    const refused = await c.call("POST", "/agents/me/claim-link", { key: aliceKey, idem });
    assert.equal(refused.status, 409);
    const first = await c.call("GET", `/agents/${agentId}/calls?limit=2`); // no key: the record is public
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.equal(first.json.agentId, agentId);
    const [latest, earlier] = first.json.calls;
    assert.equal(latest.operation, "resendClaimLink");
    assert.equal(latest.method, "POST");
    assert.equal(latest.status, 409);
    assert.equal(latest.idempotent, true);
    assert.equal(latest.idempotencyKeySha256, `0x${createHash("sha256").update(idem).digest("hex")}`);
    assert.match(latest.requestHash, /^0x[0-9a-f]{64}$/);
    assert.equal(earlier.operation, "getMe");
    assert.equal(earlier.idempotent, false);
    assert.equal(earlier.idempotencyKeySha256, null);
    assert.ok(BigInt(latest.id) > BigInt(earlier.id) && latest.at >= earlier.at);
    assert.ok(!JSON.stringify(first.json).includes(idem), "idempotency keys stay private");
    assert.ok(first.json.nextCursor, "alice made more calls than one page");
    const next = await c.call("GET", `/agents/${agentId}/calls?limit=200&cursor=${first.json.nextCursor}`);
    assert.ok(next.json.calls.length > 0);
    assert.ok(next.json.calls.every((x: Json) => BigInt(x.id) < BigInt(earlier.id)));
    assert.equal(next.json.nextCursor, null);
    const unknown = await c.call("GET", `/agents/${randomUUID()}/calls`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, "AGENT_NOT_FOUND");
    assert.equal((await c.call("GET", `/agents/${agentId}/calls?cursor=abc`)).json.code, "INVALID_PAYLOAD");
  });

  it("rotation: a new key, the old one revoked at once", async () => {
    const r = await c.call("POST", `/keys/${aliceKeyId}/rotate`, { key: aliceKey });
    assert.equal(r.status, 201, JSON.stringify(r.json));
    assert.notEqual(r.json.apiKey, aliceKey);
    assert.equal(r.json.revokedKeyId, aliceKeyId);
    assert.equal((await c.call("GET", "/me", { key: aliceKey })).status, 401);
    const me = await c.call("GET", "/me", { key: r.json.apiKey });
    assert.equal(me.status, 200);
    assert.equal(me.json.keyId, r.json.keyId);
    const stale = await c.call("POST", `/keys/${aliceKeyId}/rotate`, { key: r.json.apiKey });
    assert.equal(stale.status, 404);
    aliceKey = r.json.apiKey;
  });

  it("recovery: the svc-api-key-recovery proof replaces every key; an unknown wallet is 404 AGENT_NOT_FOUND", async () => {
    const recoverBody = async (account: PrivateKeyAccount) => {
      const signedMessage = `svc-api-key-recovery:${account.address.toLowerCase()}:${await c.nonce()}`;
      return { walletAddress: account.address, signedMessage, walletSignature: await account.signMessage({ message: signedMessage }) };
    };
    const r = await c.call("POST", "/keys/recover", { body: await recoverBody(alice) });
    assert.equal(r.status, 201, JSON.stringify(r.json));
    assert.equal(r.json.name, "Alice Bot");
    assert.equal(r.json.revokedKeys, 1);
    assert.equal((await c.call("GET", "/me", { key: aliceKey })).status, 401);
    assert.equal((await c.call("GET", "/me", { key: r.json.apiKey })).status, 200);
    const stranger = await c.call("POST", "/keys/recover", { body: await recoverBody(privateKeyToAccount(generatePrivateKey())) });
    assert.equal(stranger.status, 404);
    assert.equal(stranger.json.code, "AGENT_NOT_FOUND");
    // A registration proof is not a recovery proof.
    const { name: _name, ...registerProof } = await c.registerBody(alice, "x");
    const wrongKind = await c.call("POST", "/keys/recover", { body: registerProof });
    assert.equal(wrongKind.status, 401);
  });
});

describe("identity API with every registration path opened", () => {
  let h: Harness;
  let c: ReturnType<typeof client>;
  before(async () => {
    h = await startHarness({
      REGISTRATION_EMAIL_OPEN: "true",
      REGISTRATION_WALLET_OPEN: "true",
      REGISTRATION_ANONYMOUS_OPEN: "true",
      REGISTRATION_CLAIM_OPEN: "false",
    });
    c = client(h);
  });
  after(() => stopHarness(h));

  it("the claim path closed names path claim", async () => {
    const r = await c.call("POST", "/register", {
      body: await c.registerBody(privateKeyToAccount(generatePrivateKey()), "Claimy", { ownerEmail: "o@example.com" }),
    });
    assert.equal(r.status, 403);
    assert.equal(r.json.reason, "AGENT_REGISTRATION_CLOSED");
    assert.equal(r.json.path, "claim");
  });

  it("wallet path: active execute key", async () => {
    const r = await c.call("POST", "/register", { body: await c.registerBody(privateKeyToAccount(generatePrivateKey()), "Walleted") });
    assert.equal(r.status, 201);
    assert.equal(r.json.status, "active");
    assert.equal(r.json.tier, "execute");
    assert.deepEqual(r.json.scopes, [...GRANTS.wallet]);
  });

  it("anonymous path: a 24 h read-only trial; a missing scope is 403 FORBIDDEN; binding a wallet upgrades it", async () => {
    const r = await c.call("POST", "/register", { body: { name: "Anon", turnstileToken: "dev-token" } });
    assert.equal(r.status, 201);
    assert.equal(r.json.status, "trial");
    assert.equal(r.json.ledgerAccount, derivedLedgerAccount(r.json.agentId));
    const key = r.json.apiKey as string;
    const rotate = await c.call("POST", `/keys/${r.json.keyId}/rotate`, { key });
    assert.equal(rotate.status, 403);
    assert.equal(rotate.json.code, "FORBIDDEN");
    assert.deepEqual(rotate.json.missingScopes, ["keys:read"]);
    // Refused for its scope, the call was still made with a valid key: it is on the agent's public record.
    const record = await c.call("GET", `/agents/${r.json.agentId}/calls?limit=1`);
    assert.deepEqual([record.json.calls[0].operation, record.json.calls[0].status], ["rotateKey", 403]);
    const fills = await c.call("GET", "/fills/allowance", { key });
    assert.equal(fills.status, 403);
    assert.equal(fills.json.code, "WALLET_REQUIRED");

    const w = privateKeyToAccount(generatePrivateKey());
    const signedMessage = `svc-bind-wallet:${r.json.agentId}:${w.address.toLowerCase()}:${await c.nonce()}`;
    const proof = { walletAddress: w.address, signedMessage, walletSignature: await w.signMessage({ message: signedMessage }) };
    const otherAgent = await c.call("POST", "/agents/me/bind-wallet", {
      key,
      body: {
        ...proof,
        signedMessage: signedMessage.replace(r.json.agentId, "00000000-0000-4000-8000-000000000000"),
        walletSignature: await w.signMessage({ message: signedMessage.replace(r.json.agentId, "00000000-0000-4000-8000-000000000000") }),
      },
    });
    assert.equal(otherAgent.status, 401);
    const bound = await c.call("POST", "/agents/me/bind-wallet", { key, body: proof });
    assert.equal(bound.status, 200, JSON.stringify(bound.json));
    assert.equal(bound.json.tier, "execute");
    const me = await c.call("GET", "/me", { key });
    assert.equal(me.json.walletAddress, w.address.toLowerCase());
    assert.equal(me.json.ledgerAccount, derivedLedgerAccount(r.json.agentId), "the ledger account never moves");
    assert.equal(me.json.expiresAt, null, "a bound wallet makes the trial agent permanent");
  });

  it("a trial key stops after 24 h", async () => {
    const r = await c.call("POST", "/register", { body: { name: "Shortlived", turnstileToken: "dev-token" } });
    h.clock.advance(86_400_000);
    const me = await c.call("GET", "/me", { key: r.json.apiKey });
    assert.equal(me.status, 401);
    assert.match(me.json.detail, /expired/);
  });

  it("email path: 202 dormant key, verification through the mailed token", async () => {
    const r = await c.call("POST", "/register", { body: { name: "Mailer", email: "mailer@example.com" } });
    assert.equal(r.status, 202, JSON.stringify(r.json));
    assert.equal(r.json.status, "dormant");
    const dup = await c.call("POST", "/register", { body: { name: "Mailer2", email: "MAILER@example.com" } });
    assert.equal(dup.status, 409);
    assert.equal(dup.json.code, "EMAIL_ALREADY_REGISTERED");
    const token = tokenIn(await c.lastMailTo("mailer@example.com"), "vfy_");
    const v = await c.call("POST", "/agents/verify-email", { body: { token } });
    assert.equal(v.status, 200, JSON.stringify(v.json));
    const me = await c.call("GET", "/me", { key: r.json.apiKey });
    assert.equal(me.json.emailVerified, true);
    assert.equal(me.json.fills, null, "no wallet, no fills");
  });

  it("bind-email on a wallet agent mails a link and binds on verification", async () => {
    const r = await c.call("POST", "/register", { body: await c.registerBody(privateKeyToAccount(generatePrivateKey()), "Binder") });
    const b = await c.call("POST", "/agents/me/bind-email", { key: r.json.apiKey, body: { email: "binder@example.com" } });
    assert.equal(b.status, 202);
    assert.equal((await c.call("GET", "/me", { key: r.json.apiKey })).json.email, null, "not bound before verification");
    const v = await c.call("POST", "/agents/verify-email", { body: { token: tokenIn(await c.lastMailTo("binder@example.com"), "vfy_") } });
    assert.equal(v.status, 200);
    const me = await c.call("GET", "/me", { key: r.json.apiKey });
    assert.equal(me.json.email, "binder@example.com");
    assert.equal(me.json.tier, "execute", "verification never lowers a tier");
  });

  it("registration has its own per-IP window (default 10 per 60 s) with Retry-After", async () => {
    h.clock.advance(61_000);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof c.call>> | undefined;
    for (let i = 0; i < 11; i++) {
      last = await c.call("POST", "/register", { body: { name: `Burst ${i}`, turnstileToken: "dev-token" } });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [...Array(10).fill(201), 429]);
    assert.equal(last!.json.code, "RATE_LIMITED");
    assert.equal(last!.res.headers.get("ratelimit-limit"), "10");
    assert.ok(Number(last!.res.headers.get("retry-after")) >= 1);
    // The nonce endpoint is not in the registration window.
    assert.equal((await c.call("POST", "/api/auth/nonce", { root: true })).status, 200);
  });
});
