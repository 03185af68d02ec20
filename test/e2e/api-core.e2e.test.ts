/**
 * Acceptance of the issue "API core", checked as a new user would try it against `npm start` (docs/e2e.md):
 * the whole stack runs as a child process and every step goes over HTTP to the URLs it prints.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { AgentCard } from "@a2a-js/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { validate, compileErrors } from "@readme/openapi-parser";
import { call, freshAccount, freshNonce, registerProof, show, type Json } from "./client";
import { assertProblem } from "./problems";
import { startStack, type E2eStack } from "./stack";

const RATE_HEADERS = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"];

/** Keys of T whose type does not admit undefined: the fields the SDK's AgentCard type requires. */
type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
const SDK_REQUIRED = [
  "name",
  "description",
  "supportedInterfaces",
  "version",
  "securitySchemes",
  "securityRequirements",
  "defaultInputModes",
  "defaultOutputModes",
  "skills",
  "signatures",
] as const satisfies readonly RequiredKeys<AgentCard>[];
// Fails to compile when the SDK's AgentCard gains a required field this list does not name.
const sdkRequiredIsComplete: [Exclude<RequiredKeys<AgentCard>, (typeof SDK_REQUIRED)[number]>] extends [never] ? true : false = true;
/** Fields the A2A specification marks REQUIRED on the wire (the SDK types capabilities as `| undefined`). */
const WIRE_REQUIRED = ["name", "description", "supportedInterfaces", "version", "capabilities", "defaultInputModes", "defaultOutputModes", "skills"];

describe("API core, tried as a new user against npm start", { timeout: 600_000 }, () => {
  let stack: E2eStack;
  let base: string;
  const owner = `owner-${Date.now()}@example.com`;
  const agentName = `e2e-core-${Date.now()}`;
  let apiKey = "";
  let keyId = "";
  let wallet = "";

  before(
    async () => {
      stack = await startStack();
      base = stack.baseUrl;
    },
    { timeout: 300_000 },
  );
  after(async () => {
    await stack?.stop();
  });

  it("registers through the claimed-agent path with a real EIP-191 signature, and refuses a reused nonce", async () => {
    const account = freshAccount();
    wallet = account.address.toLowerCase();
    const nonce = await freshNonce(stack.origin);
    assert.match(nonce, /^[0-9a-f]{32}$/);
    const body = { name: agentName, ...(await registerProof(account, nonce)), ownerEmail: owner };
    const idem = `reg-${Date.now()}`;
    const first = await call(base, "POST", "/register", body, { idem });
    assert.equal(first.status, 201, show("POST", "/register", first));
    assert.equal(first.json.status, "claim-pending");
    assert.equal(first.json.tier, "read-only");
    assert.equal(first.json.walletAddress, wallet);
    assert.equal(first.json.ledgerAccount, wallet);
    assert.match(first.json.apiKey, /^svc_[A-Za-z0-9_-]{43}$/);
    assert.ok(first.json.scopes.includes("markets:read") && !first.json.scopes.includes("trade:execute"), `scopes ${first.json.scopes}`);
    assert.equal(first.json.claim?.status, "pending");
    assert.ok(first.json.claim.unlocksScopes.includes("trade:execute"));
    apiKey = first.json.apiKey;
    keyId = first.json.keyId;

    // The same request again (a network retry) answers the stored response, without the secret.
    const replay = await call(base, "POST", "/register", body, { idem });
    assert.equal(replay.status, 201, show("POST", "/register (replay)", replay));
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.equal(replay.json.agentId, first.json.agentId);
    assert.notEqual(replay.json.apiKey, apiKey, "a replay must not show the key again");

    // The spent nonce, signed by another wallet: refused.
    const other = freshAccount();
    const reused = await call(base, "POST", "/register", { name: `${agentName}-b`, ...(await registerProof(other, nonce)), ownerEmail: owner });
    assertProblem(reused, "WALLET_AUTH_INVALID", "POST /register with a spent nonce (other wallet)");
    // ...and the very same signed proof under a new Idempotency-Key: refused too.
    const again = await call(base, "POST", "/register", { ...body, name: `${agentName}-c` });
    assertProblem(again, "WALLET_AUTH_INVALID", "POST /register with a spent nonce (same proof)");
    // The refusal changed nothing: that other wallet registers with a fresh nonce.
    const ok = await call(base, "POST", "/register", {
      name: `${agentName}-b`,
      ...(await registerProof(other, await freshNonce(stack.origin))),
      ownerEmail: owner,
    });
    assert.equal(ok.status, 201, show("POST", "/register (fresh nonce)", ok));
  });

  it("reads /me (uncharged: no RateLimit headers)", async () => {
    const me = await call(base, "GET", "/me", undefined, { key: apiKey });
    assert.equal(me.status, 200, show("GET", "/me", me));
    assert.equal(me.json.name, agentName);
    assert.equal(me.json.kind, "agent");
    assert.equal(me.json.walletAddress, wallet);
    assert.equal(me.json.tier, "read-only");
    assert.equal(me.json.ledgerAccount, wallet);
    assert.equal(me.json.keyId, keyId);
    assert.ok(Array.isArray(me.json.capabilities) && me.json.capabilities.length > 0);
    for (const h of RATE_HEADERS) assert.equal(me.headers.get(h), null, `GET /me carries ${h}`);
  });

  it("answers RFC 9457 problems: missing key, wrong scope, missing Idempotency-Key, reused Idempotency-Key, unknown query property", async () => {
    const noKey = await call(base, "GET", "/me");
    assertProblem(noKey, "AUTH_REQUIRED", "GET /me without a key");
    assert.match(noKey.headers.get("www-authenticate") ?? "", /^Bearer/);

    const scope = await call(base, "GET", "/webhooks", undefined, { key: apiKey });
    assertProblem(scope, "FORBIDDEN", "GET /webhooks with a claim-pending key");
    assert.deepEqual(scope.json.missingScopes, ["webhooks:manage"]);
    const tier = await call(
      base,
      "POST",
      "/orderbook/place-order",
      { market: "0x" + "1".repeat(40), outcome: 0, side: "buy", priceBps: "5000", size: "10000" },
      { key: apiKey },
    );
    assertProblem(tier, "FORBIDDEN", "POST /orderbook/place-order with a claim-pending key");

    const noIdem = await call(base, "POST", `/keys/${keyId}/rotate`, undefined, { key: apiKey, idem: null });
    assertProblem(noIdem, "IDEMPOTENCY_KEY_REQUIRED", `POST /keys/${keyId}/rotate without Idempotency-Key`);
    const still = await call(base, "GET", "/me", undefined, { key: apiKey });
    assert.equal(still.status, 200, "the refused rotation changed nothing: the key still works");

    const account = freshAccount();
    const idem = `reuse-${Date.now()}`;
    const body = { name: `${agentName}-d`, ...(await registerProof(account, await freshNonce(stack.origin))), ownerEmail: `d-${owner}` };
    const first = await call(base, "POST", "/register", body, { idem });
    assert.equal(first.status, 201, show("POST", "/register", first));
    const changed = await call(base, "POST", "/register", { ...body, name: `${agentName}-e` }, { idem });
    assertProblem(changed, "IDEMPOTENCY_KEY_REUSED", "POST /register, same Idempotency-Key, changed body");

    const bad = await call(base, "GET", "/discover/markets?pricingModel=ORDERBOOK&colour=blue");
    assertProblem(bad, "INVALID_PAYLOAD", "GET /discover/markets?colour=blue");
    assert.equal(bad.json.field, "colour");
    assert.equal(bad.json.location, "query");
  });

  it("puts RateLimit-Limit/Remaining/Reset on a charged read", async () => {
    const me = await call(base, "GET", "/me", undefined, { key: apiKey });
    // A key-charged read (public reads such as /discover/* count only against the per-IP window).
    const read = await call(base, "GET", "/fills/allowance", undefined, { key: apiKey });
    assert.equal(read.status, 200, show("GET", "/fills/allowance", read));
    for (const h of RATE_HEADERS) assert.match(read.headers.get(h) ?? "", /^\d+$/, `${h} on a charged read`);
    const [limit, remaining, reset] = RATE_HEADERS.map((h) => Number(read.headers.get(h)));
    assert.equal(limit, me.json.rateLimits.readPerMinute, "the key's read ceiling");
    assert.ok(remaining! < limit!, `remaining ${remaining} after a charged call, limit ${limit}`);
    // Spec "Limits": RateLimit-Reset is the absolute epoch second when the oldest charged request ages out (60 s window).
    const now = Math.floor(Date.parse(read.headers.get("date")!) / 1000);
    assert.ok(reset! >= now && reset! <= now + 61, `reset ${reset} within the 60 s window after ${now}`);
  });

  it("lists and calls tools through the official MCP SDK client with the bearer key", async () => {
    const client = new Client({ name: "e2e-new-user", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } });
    await client.connect(transport);
    try {
      const names: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 20; page++) {
        const listed = await client.listTools(cursor ? { cursor } : {});
        names.push(...listed.tools.map((t) => t.name));
        for (const t of listed.tools) assert.equal(t.inputSchema.type, "object", `inputSchema of ${t.name}`);
        cursor = listed.nextCursor;
        if (!cursor) break;
      }
      for (const n of ["svc_get_agent_identity", "svc_list_markets", "svc_register_agent", "svc_place_order", "svc_list_order_events"])
        assert.ok(names.includes(n), `tools/list lacks ${n}`);

      const me = await client.callTool({ name: "svc_get_agent_identity", arguments: {} });
      assert.notEqual(me.isError, true, JSON.stringify(me).slice(0, 600));
      assert.equal((me.structuredContent as Json).name, agentName);
      const markets = await client.callTool({ name: "svc_list_markets", arguments: { pricingModel: "ORDERBOOK" } });
      assert.notEqual(markets.isError, true, JSON.stringify(markets).slice(0, 600));
      assert.ok(((markets.structuredContent as Json).markets as Json[]).length > 0, "the seeded ORDERBOOK markets");
      // The key's tier holds over MCP too.
      const refused = await client.callTool({
        name: "svc_place_order",
        arguments: { idempotencyKey: "mcp-1", market: "0x" + "1".repeat(40), outcome: 0, side: "buy", priceBps: "5000", size: "10000" },
      });
      assert.equal(refused.isError, true);
      assert.equal(JSON.parse((refused.content as { text: string }[])[0]!.text).code, "FORBIDDEN");
    } finally {
      await client.close();
    }
  });

  it("serves an agent card with the A2A SDK's required fields", async () => {
    const res = await fetch(`${stack.origin}/.well-known/agent-card.json`);
    assert.equal(res.status, 200);
    const json = (await res.json()) as Json;
    for (const f of WIRE_REQUIRED) assert.ok(json[f] !== undefined && json[f] !== "" && json[f] !== null, `wire field ${f}`);
    assert.ok(sdkRequiredIsComplete);
    const card = AgentCard.fromJSON(json);
    for (const f of SDK_REQUIRED) assert.ok(card[f] !== undefined, `AgentCard.${f}`);
    assert.ok(card.name && card.description && card.version);
    assert.deepEqual(AgentCard.toJSON(card), json, "the card reads back into the SDK type unchanged");
    assert.ok(card.supportedInterfaces.length > 0);
    for (const i of card.supportedInterfaces) assert.ok(i.url && i.protocolBinding && i.protocolVersion, `interface ${JSON.stringify(i)}`);
    assert.equal(card.supportedInterfaces[0]!.url, stack.baseUrl, "the card names the printed API base URL");
    assert.ok(card.defaultInputModes.length > 0 && card.defaultOutputModes.length > 0);
    assert.ok(card.skills.length > 0);
    for (const s of card.skills) assert.ok(s.id && s.name && s.description && s.tags.length > 0, `skill ${s.id}`);
    const params = (card.capabilities?.extensions ?? []).map((e) => e.params ?? {});
    assert.ok(
      params.some((p) => p.url === stack.mcpUrl),
      "an extension names the printed MCP URL",
    );
    assert.ok(
      params.some((p) => Array.isArray(p.supportedChains) && p.supportedChains.includes(stack.chainId)),
      "the chain id",
    );
  });

  it("serves /openapi.json that a real OpenAPI validator accepts", async () => {
    const res = await fetch(`${base}/openapi.json`);
    assert.equal(res.status, 200);
    const doc = (await res.json()) as Json;
    assert.match(doc.openapi, /^3\.1\./);
    const result = await validate(structuredClone(doc) as never);
    assert.ok(result.valid, result.valid ? "" : compileErrors(result));
    for (const p of ["/register", "/me", "/discover/markets", "/orderbook/place-order", "/orderbook/events", "/ledger/batches"]) {
      assert.ok(
        Object.keys(doc.paths).some((k) => k.endsWith(p)),
        `paths lack ${p}`,
      );
    }
  });

  it("stops on SIGTERM and leaves no process behind", async () => {
    const report = await stack.stop();
    assert.equal(report.exit, 0, `exit of npm start after SIGTERM; last lines:\n${stack.tail(30)}`);
    assert.deepEqual(report.leftover, [], "processes of the stack still running after SIGTERM");
  });
});
