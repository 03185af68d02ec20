/**
 * The auth matrix: every registry operation x {no key, bogus key, revoked key, expired trial key, read-only tier,
 * propose tier, missing scope, execute, another agent's resource id, a reused wallet proof, a proof made for another
 * tool or payload}, over REST and (for operations with a tool) MCP. The expected answer of each cell is derived from
 * the operation's registry entry (permission, tier, scopes, walletProof, ownedResource) and the rules of docs/api.md
 * "Authentication and authorization", never listed per operation; cells that do not apply (no resource id, no proof)
 * are counted apart. Refused writes must change nothing. Prints {"bench":"auth-matrix","cells":...}.
 */
import { strict as assert } from "node:assert";
import { randomBytes, randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { privateKeyToAccount } from "viem/accounts";
import { OPERATIONS } from "../../api/operations";
import { createAgent } from "../../api/domain/auth/agents";
import { issueKey, revokeAgentKeys } from "../../api/domain/auth/api-keys";
import { createLocalAgent, type LocalAgent } from "../../api/domain/auth/local-agents";
import { GRANTS, SCOPES, tierAtLeast, type AgentTier, type Scope } from "../../api/domain/auth/scopes";
import { issueNonce } from "../../api/domain/auth/wallet-proof/nonces";
import { proofMessage, type ProofKind } from "../../api/domain/auth/wallet-proof/templates";
import { requiresKey, type AnyOperation } from "../../api/registry/types";
import { toJsonSchema } from "../../api/registry/openapi/json-schema";
import { bindingOf } from "../../api/transports/mcp/tools";
import { challengeOf, mcpProofMessage } from "../../api/transports/mcp/wallet-proof";
import type { KeyPrincipal } from "../../api/domain/auth/principal";
import { apiClient, stopTestService, type Json } from "../support/service";
import { restUrl } from "./cases";
import { startFixture, type Fixture } from "./fixture";
import { validArb } from "./json-arbitrary";
import { changedTables, snapshot } from "./state";

type Outcome = "pass" | "401" | "403" | "5xx" | string;
const COLUMNS = ["no key", "bogus key", "revoked key", "expired trial key", "read-only tier", "propose tier", "missing scope", "execute"] as const;
type KeyColumn = (typeof COLUMNS)[number];

/** The template of each REST wallet-proof operation's body proof; a new one must be added here (the test says so). */
const PROOF_KIND: Record<string, ProofKind> = { recoverKey: "recovery" };

/** docs/api.md: an api-key-execute operation needs tier execute unless it names propose; api-key-read its own tier. */
function requiredTier(op: AnyOperation): AgentTier {
  return op.permission === "api-key-execute" && op.tier === "read-only" ? "execute" : op.tier;
}

/** The expected class of answer of a caller over REST: public and wallet-proof operations ignore the key. */
function expectedRest(op: AnyOperation, who: { tier: AgentTier; scopes: readonly string[] } | null): Outcome {
  if (!requiresKey(op.permission)) return "pass";
  if (!who) return "401";
  if (!tierAtLeast(who.tier, requiredTier(op))) return "403";
  return op.scopes.every((s: string) => who.scopes.includes(s)) ? "pass" : "403";
}

/** What an answer says about authorization: 401, an authorization 403 (tier or scopes), 5xx, or it passed. */
function outcomeOf(status: number, body: Json): Outcome {
  if (status >= 500) return "5xx";
  if (status === 401 && body.code === "AUTH_REQUIRED") return "401";
  if (status === 403 && body.code === "FORBIDDEN" && (body.requiredTier !== undefined || body.missingScopes !== undefined)) return "403";
  return "pass";
}

describe("auth matrix: every operation x every kind of caller", () => {
  let f: Fixture;
  const keys = {} as Record<KeyColumn, string | null>;
  const who = {} as Record<KeyColumn, { tier: AgentTier; scopes: readonly string[] } | null>;
  /** An execute agent without one scope, per scope. */
  const lacking = new Map<Scope, { apiKey: string; scopes: Scope[] }>();
  let otherOrderId = "";
  let prover: LocalAgent;
  const clients = new Map<string, Client>();
  const results: { cell: string; expected: Outcome; actual: Outcome }[] = [];
  let notApplicable = 0;
  const stateDefects: string[] = [];

  const record = (cell: string, expected: Outcome, actual: Outcome) => results.push({ cell, expected, actual });

  before(async () => {
    f = await startFixture();
    const { db } = f.t.svc.ctx;
    const now = f.t.clock.now();
    const local = async (tier: AgentTier) => createLocalAgent(db, f.t.clock, { name: `m-${tier}-${randomUUID().slice(0, 6)}`, tier });
    const readOnly = await local("read-only");
    const propose = await local("propose");
    const revoked = await local("execute");
    await revokeAgentKeys(db, revoked.agentId, now);
    const trialId = await createAgent(
      db,
      { name: `m-trial-${randomUUID().slice(0, 6)}`, tier: "read-only", scopes: GRANTS.anonymous, registrationPath: "anonymous", expiresAt: now - 1 },
      now - 86_400_000,
    );
    const trial = await issueKey(db, trialId, now - 86_400_000);
    for (const scope of SCOPES) {
      const scopes = SCOPES.filter((s) => s !== scope);
      const id = await createAgent(
        db,
        { name: `m-no-${scope.replace(":", "-")}-${randomUUID().slice(0, 4)}`, tier: "execute", scopes, registrationPath: "admin" },
        now,
      );
      lacking.set(scope, { apiKey: (await issueKey(db, id, now)).apiKey, scopes });
    }
    prover = await local("execute");
    Object.assign(keys, {
      "no key": null,
      "bogus key": `svc_${randomBytes(32).toString("base64url")}`,
      "revoked key": revoked.apiKey,
      "expired trial key": trial.apiKey,
      "read-only tier": readOnly.apiKey,
      "propose tier": propose.apiKey,
      "missing scope": null,
      execute: f.agent.apiKey,
    });
    Object.assign(who, {
      "no key": null,
      "bogus key": null,
      "revoked key": null,
      "expired trial key": null,
      "read-only tier": readOnly,
      "propose tier": propose,
      "missing scope": null,
      execute: f.agent,
    });
    const placed = await apiClient(f.t, f.other.apiKey)("POST", "/orderbook/place-order", {
      market: f.orderbookMarket,
      outcome: 0,
      side: "buy",
      priceBps: "100",
      size: "1000000",
    });
    assert.equal(placed.status, 200, JSON.stringify(placed.json));
    otherOrderId = String((placed.json.orders as Json[])[0]!.orderId);
  });
  after(async () => {
    for (const c of clients.values()) await c.close();
    if (f) await stopTestService(f.t);
  });

  /** A body the operation's schema accepts (the first of a few seeded samples that parses), or {}. */
  const validBody = (op: AnyOperation): Record<string, unknown> => {
    if (!op.request.body) return {};
    const samples = fc.sample(validArb(toJsonSchema(op.request.body), f.hints), { numRuns: 50, seed: 11 }) as Record<string, unknown>[];
    return samples.find((b) => op.request.body.safeParse(b).success) ?? {};
  };

  /** A fresh, valid svc-mcp-auth proof of the prover's current key for a call of `op` with `args`. */
  async function mcpProof(op: AnyOperation, args: Record<string, unknown>, tool = op.mcpTool): Promise<Record<string, unknown>> {
    const account = privateKeyToAccount(prover.walletPrivateKey!);
    const me = await apiClient(f.t)("GET", "/me", undefined, { key: proverKeyCache! });
    const principal = { agentId: prover.agentId, keyId: String(me.json.keyId) } as KeyPrincipal;
    const ts = Math.floor(f.t.clock.now() / 1000);
    const nonce = (await issueNonce(f.t.svc.ctx.db, f.t.clock.now())).nonce;
    const message = mcpProofMessage(
      challengeOf({ ...op, mcpTool: tool } as AnyOperation, principal, args, f.t.svc.ctx.config.CHAIN_ID, account.address, nonce, ts),
    );
    return { walletSignature: await account.signMessage({ message }), signatureTimestamp: ts, proofNonce: nonce };
  }

  /** One valid-looking set of path parameters (seeded), with no real ids: auth is decided before the handler. */
  const paramsOf = (op: AnyOperation): Record<string, unknown> =>
    op.request.params ? (fc.sample(validArb(toJsonSchema(op.request.params)), { numRuns: 1, seed: 7 })[0] as Record<string, unknown>) : {};

  async function rest(op: AnyOperation, key: string | null, params: Record<string, unknown>, body: unknown = {}): Promise<{ status: number; json: Json }> {
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    if (op.method !== "GET") {
      headers["idempotency-key"] = randomUUID();
      headers["content-type"] = "application/json";
    }
    const res = await fetch(new URL(restUrl(op, { valid: true, change: "none", params, query: {}, body: undefined }), f.t.svc.baseUrl), {
      method: op.method,
      headers,
      body: op.method === "GET" ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text.startsWith("{") ? (JSON.parse(text) as Json) : {} };
  }

  async function client(key: string): Promise<Client> {
    let c = clients.get(key);
    if (!c) {
      c = new Client({ name: "matrix", version: "1" });
      await c.connect(new StreamableHTTPClientTransport(new URL("/mcp", f.t.svc.baseUrl), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      clients.set(key, c);
    }
    return c;
  }

  async function tool(op: AnyOperation, key: string, args: Record<string, unknown>): Promise<{ status: number; json: Json }> {
    const b = bindingOf(op);
    const r = await (await client(key)).callTool({
      name: op.mcpTool!,
      arguments: { ...args, ...(b.needsIdempotencyKey ? { idempotencyKey: randomUUID() } : {}) },
    });
    const status = Number((r._meta as { status?: number }).status ?? 200);
    const text = (r.content as { text?: string }[])[0]?.text ?? "{}";
    return { status, json: text.startsWith("{") ? (JSON.parse(text) as Json) : {} };
  }

  /** POST /mcp with a key that is not a live one: the endpoint refuses it before any tool (docs/api.md). */
  async function rawMcp(op: AnyOperation, key: string | null): Promise<{ status: number; json: Json }> {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    if (key) headers.authorization = `Bearer ${key}`;
    const res = await fetch(new URL("/mcp", f.t.svc.baseUrl), {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: op.mcpTool, arguments: {} } }),
    });
    return { status: res.status, json: (await res.json()) as Json };
  }

  it("answers every cell as the registry says", async () => {
    let refusedWrites = 0;
    for (const op of OPERATIONS) {
      const params = paramsOf(op);
      for (const col of COLUMNS) {
        let key = keys[col];
        let caller = who[col];
        if (col === "missing scope") {
          // The first scope the operation needs is the one missing; with none, any scope may be missing.
          const missing = (op.scopes[0] ?? "keys:read") as Scope;
          const l = lacking.get(missing)!;
          key = l.apiKey;
          caller = { tier: "execute", scopes: l.scopes };
        }
        const expected = expectedRest(op, caller);
        const checkState = expected !== "pass" && op.method !== "GET";
        const state = checkState ? await snapshot(f.t.svc.ctx.db) : null;
        const r = await rest(op, key, params);
        if (state) stateDefects.push(...changedTables(state, await snapshot(f.t.svc.ctx.db)).map((t) => `rest ${op.id} | ${col} changed ${t}`));
        const actual = outcomeOf(r.status, r.json);
        record(`rest ${op.id} | ${col}`, expected, actual === "401" && !r.json.type ? "401 without a problem" : actual);
        if (expected !== "pass" && op.method !== "GET") refusedWrites++;
        if (!op.mcpTool) continue;
        if (key === null || caller === null) {
          const m = await rawMcp(op, key);
          record(`mcp ${op.id} | ${col}`, "401", m.status === 401 && m.json.code === "AUTH_REQUIRED" ? "401" : `${m.status}`);
        } else {
          const m = await tool(op, key, params);
          record(`mcp ${op.id} | ${col}`, expected, outcomeOf(m.status, m.json));
        }
      }
      // Another agent's resource: the operation's declared owned field set to the other agent's id.
      const owned = op.ownedResource;
      if (!owned) notApplicable += op.mcpTool ? 2 : 1;
      else {
        const id = { webhook: f.otherWebhookId, apiKey: f.other.keyId, order: otherOrderId }[owned.kind];
        assert.ok(id, `no other agent's ${owned.kind} to try on ${op.id}`);
        const inParams = owned.field in params;
        const p = inParams ? { ...params, [owned.field]: id } : params;
        // A body that passes validation, so the call reaches the ownership check.
        const candidates = inParams ? [validBody(op)] : [{ ...validBody(op), [owned.field]: id }, { [owned.field]: id }];
        const body = candidates.find((b) => !op.request.body || op.request.body.safeParse(b).success) ?? candidates[0]!;
        const state = await snapshot(f.t.svc.ctx.db);
        const r = await rest(op, f.agent.apiKey, p, body);
        stateDefects.push(...changedTables(state, await snapshot(f.t.svc.ctx.db)).map((t) => `rest ${op.id} | another agent's resource changed ${t}`));
        record(`rest ${op.id} | another agent's resource`, `404 ${owned.notFound}`, `${r.status} ${r.json.code}`);
        if (op.mcpTool) {
          const args = { ...p, ...(op.request.body ? body : {}) };
          const m = await tool(op, op.walletProof ? await proverKey() : f.agent.apiKey, op.walletProof ? { ...args, ...(await mcpProof(op, args)) } : args);
          record(`mcp ${op.id} | another agent's resource`, `404 ${owned.notFound}`, `${m.status} ${m.json.code}`);
        }
      }
      await proofCells(op);
    }

    const wrong = results.filter((r) => r.expected !== r.actual);
    const byCol = new Map<string, number>();
    for (const r of results) byCol.set(r.cell.split(" | ")[1]!, (byCol.get(r.cell.split(" | ")[1]!) ?? 0) + 1);
    console.log(
      JSON.stringify({
        bench: "auth-matrix",
        operations: OPERATIONS.length,
        cells: results.length,
        asExpected: results.length - wrong.length,
        percentAsExpected: Math.round(((results.length - wrong.length) / results.length) * 10_000) / 100,
        notApplicable,
        refusedWriteCells: refusedWrites,
        byColumn: Object.fromEntries(byCol),
      }),
    );
    assert.deepEqual(
      wrong.map((w) => `${w.cell}: expected ${w.expected}, got ${w.actual}`),
      [],
    );
    assert.deepEqual(stateDefects, [], "refused cells changed these tables");
  });

  /** The two proof columns: REST wallet-proof operations (body proof) and MCP tools marked walletProof. */
  async function proofCells(op: AnyOperation): Promise<void> {
    const account = privateKeyToAccount(prover.walletPrivateKey!);
    const nonce = async () => (await issueNonce(f.t.svc.ctx.db, f.t.clock.now())).nonce;
    let applies = 0;
    if (op.permission === "wallet-proof") {
      applies++;
      const kind = PROOF_KIND[op.id];
      assert.ok(kind, `${op.id} takes a wallet proof: name its template in PROOF_KIND`);
      const other = kind === "register" ? "recovery" : "register";
      const n1 = await nonce();
      const body = { walletAddress: account.address, signedMessage: proofMessage(kind, account.address, n1, prover.agentId) };
      const proof = { ...body, walletSignature: await account.signMessage({ message: body.signedMessage }) };
      const first = await rest(op, null, {}, proof);
      assert.ok(first.status < 300, `${op.id}: the valid proof passes (${first.status} ${JSON.stringify(first.json)})`);
      const again = await rest(op, null, {}, proof);
      record(`rest ${op.id} | reused wallet proof`, "401 WALLET_AUTH_INVALID", `${again.status} ${again.json.code}`);
      const n2 = await nonce();
      const foreign = proofMessage(other, account.address, n2, prover.agentId);
      const wrongKind = await rest(
        op,
        null,
        {},
        { walletAddress: account.address, signedMessage: foreign, walletSignature: await account.signMessage({ message: foreign }) },
      );
      record(`rest ${op.id} | proof for another tool or payload`, "401 WALLET_AUTH_INVALID", `${wrongKind.status} ${wrongKind.json.code}`);
    }
    if (op.walletProof && op.mcpTool) {
      applies++;
      // The prover's live key (the REST cell above may have rotated it) and its principal as the challenge names it.
      const me = await apiClient(f.t)("GET", "/me", undefined, { key: await proverKey() });
      const principal = { agentId: prover.agentId, keyId: String(me.json.keyId) } as KeyPrincipal;
      const args = { ...paramsOf(op), ...(op.ownedResource ? { [op.ownedResource.field]: paramsOf(op)[op.ownedResource.field] } : {}) };
      const ts = Math.floor(f.t.clock.now() / 1000);
      const sign = async (o: AnyOperation, a: Record<string, unknown>, n: string) =>
        account.signMessage({ message: mcpProofMessage(challengeOf(o, principal, a, f.t.svc.ctx.config.CHAIN_ID, account.address, n, ts)) });
      const n1 = await nonce();
      const proof = { walletSignature: await sign(op, args, n1), signatureTimestamp: ts, proofNonce: n1 };
      const first = await tool(op, proverKeyCache!, { ...args, ...proof });
      assert.notEqual(first.json.code, "WALLET_AUTH_INVALID", `${op.id}: the valid proof passes (${JSON.stringify(first.json)})`);
      const again = await tool(op, proverKeyCache!, { ...args, ...proof });
      record(`mcp ${op.id} | reused wallet proof`, "401 WALLET_AUTH_INVALID", `${again.status} ${again.json.code}`);
      const n2 = await nonce();
      const otherTool = { ...op, mcpTool: "svc_another_tool" } as AnyOperation;
      const forTool = await tool(op, proverKeyCache!, { ...args, walletSignature: await sign(otherTool, args, n2), signatureTimestamp: ts, proofNonce: n2 });
      const n3 = await nonce();
      const otherArgs = Object.fromEntries(
        Object.entries(args).map(([k, v]) => [k, typeof v === "string" ? v.replace(/.$/, (c) => (c === "0" ? "1" : "0")) : v]),
      );
      const forPayload = await tool(op, proverKeyCache!, {
        ...args,
        walletSignature: await sign(op, { ...otherArgs, extra: 1 }, n3),
        signatureTimestamp: ts,
        proofNonce: n3,
      });
      const both =
        forTool.json.code === "WALLET_AUTH_INVALID" && forPayload.json.code === "WALLET_AUTH_INVALID"
          ? "401 WALLET_AUTH_INVALID"
          : `${forTool.status} ${forTool.json.code} / ${forPayload.status} ${forPayload.json.code}`;
      record(`mcp ${op.id} | proof for another tool or payload`, "401 WALLET_AUTH_INVALID", both);
    }
    notApplicable += (op.mcpTool ? 4 : 2) - applies * 2;
  }

  let proverKeyCache: string | null = null;
  /** A live key of the prover (recovery revokes its keys, so a fresh one is issued when needed). */
  async function proverKey(): Promise<string> {
    const db = f.t.svc.ctx.db;
    proverKeyCache = (await issueKey(db, prover.agentId, f.t.clock.now())).apiKey;
    return proverKeyCache;
  }
});
