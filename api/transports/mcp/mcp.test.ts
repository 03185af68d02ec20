import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { testConfig } from "../../../test/support/service";
import { startService, type RunningService } from "../../service";
import { createApp } from "../../app";
import { manualClock } from "../../../relayer/clock";
import { createAgent } from "../../domain/auth/agents";
import { issueKey } from "../../domain/auth/api-keys";
import { SCOPES } from "../../domain/auth/scopes";
import { payloadHash } from "../../platform/hashing/canonical-json";
import { Registry } from "../../registry/registry";
import { defineOperation } from "../../registry/types";
import { getServerTime } from "../../operations/system/get-server-time";
import { issueNonce } from "../../domain/auth/wallet-proof/nonces";
import { mcpProofMessage } from "./wallet-proof";
import { bindingOf } from "./tools";
import { dropServiceSchema } from "../../../test/support/db";
import { groupCommitterOf } from "../../../relayer/db/group-commit";

const NOW = 1_800_000_000_000;
const account = privateKeyToAccount("0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba");

/** A write that needs trade:execute, an Idempotency-Key and a fresh wallet proof over MCP. */
const placeThing = defineOperation({
  id: "placeThing",
  method: "POST",
  path: "/test/things/{thingId}/place",
  summary: "Place a thing (test operation)",
  category: "test",
  permission: "api-key-execute",
  tier: "execute",
  scopes: ["trade:execute"],
  rateClass: "write",
  charged: true,
  idempotency: "required",
  request: { params: z.object({ thingId: z.string().min(1) }), body: z.object({ amount: z.string().regex(/^\d+$/), note: z.string().optional() }) },
  response: z.object({ thingId: z.string(), amount: z.string(), surface: z.string(), agentId: z.string(), serial: z.number().int() }),
  mcpTool: "svc_place_thing",
  walletProof: true,
  async handler(_ctx, input, call) {
    serial += 1;
    return { thingId: input.params.thingId, amount: input.body.amount, surface: call.surface, agentId: call.principal?.agentId ?? "", serial };
  },
});
let serial = 0;

function text(r: CallToolResult): string {
  const c = r.content[0];
  return c && c.type === "text" ? c.text : "";
}

async function connect(url: string, key?: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: key ? { Authorization: `Bearer ${key}` } : {} } });
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

describe("MCP server over real HTTP with the SDK client", () => {
  let svc: RunningService;
  let custom: ServerType;
  let customUrl: string;
  let fullKey: string;
  let fullAgent: string;
  let fullKeyId: string;
  let readKey: string;
  const dir = mkdtempSync(join(tmpdir(), "pm-mcp-"));
  const clock = manualClock(NOW);
  // On Postgres, a schema of its own: the agents' names and wallet are unique, and a rerun must not collide.
  const schema = process.env.DATABASE_URL ? `t_mcp_${Date.now().toString(36)}_${process.pid}` : undefined;

  before(async () => {
    // testConfig: never the developer's deployments/8453.json (the demo markets this test trades need the factories'
    // fee defaults, read from a chain only when a deployment names one).
    svc = await startService(testConfig(dir, { DATABASE_URL: process.env.DATABASE_URL, DATABASE_SCHEMA: schema }), { clock });
    const db = svc.ctx.db;
    fullAgent = await createAgent(
      db,
      { name: "mcp-full", tier: "execute", scopes: [...SCOPES], registrationPath: "admin", walletAddress: account.address },
      NOW,
    );
    ({ apiKey: fullKey, keyId: fullKeyId } = await issueKey(db, fullAgent, NOW));
    const readAgent = await createAgent(db, { name: "mcp-read", tier: "read-only", scopes: ["markets:read"], registrationPath: "admin" }, NOW);
    ({ apiKey: readKey } = await issueKey(db, readAgent, NOW));
    // A second app on the same context with a test operation added to the registry: real HTTP as well.
    const { app } = createApp(svc.ctx, svc, new Registry([getServerTime, placeThing]));
    custom = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
    });
    customUrl = `http://127.0.0.1:${(custom.address() as AddressInfo).port}/mcp`;
  });
  after(async () => {
    await new Promise<void>((r) => custom.close(() => r()));
    await svc.close();
    await dropServiceSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it("initializes at revision 2025-11-25 without a session id and lists one tool per registry operation with mcpTool", async () => {
    const { client, transport } = await connect(svc.mcpUrl, fullKey);
    assert.equal(transport.sessionId, undefined);
    assert.equal(client.getServerVersion()?.name, "agent-prediction-market");
    const { tools } = await client.listTools();
    const expected = svc.registry.operations.flatMap((o) => (o.mcpTool ? [o.mcpTool] : []));
    assert.deepEqual(
      tools.map((t) => t.name),
      expected,
    );
    const time = tools.find((t) => t.name === "svc_get_server_time");
    assert.equal(time?.inputSchema.type, "object");
    assert.deepEqual((time?.outputSchema?.properties as Record<string, { type: string }>).serverTime.type, "integer");
    await client.close();
    // The negotiated revision, seen on the wire.
    const res = await fetch(svc.mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${fullKey}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("mcp-session-id"), null);
    const init = (await res.json()) as { result: { protocolVersion: string } };
    assert.equal(init.result.protocolVersion, "2025-11-25");
  });

  it("runs svc_get_server_time through the REST operation; only tools/call of a key operation is charged to the key", async () => {
    const { client } = await connect(svc.mcpUrl, fullKey);
    const first = (await client.callTool({ name: "svc_get_server_time", arguments: {} })) as CallToolResult;
    assert.equal(first.isError, undefined);
    assert.deepEqual(first.structuredContent, { serverTime: NOW });
    assert.deepEqual(JSON.parse(text(first)), { serverTime: NOW });
    const meta1 = first._meta as { status: number; headers?: Record<string, string> };
    assert.equal(meta1.status, 200);
    // GET /time is a public read: never charged to the key (spec rule 4), so it shows no key window.
    assert.equal(meta1.headers?.["ratelimit-limit"], undefined);
    const balances = async () =>
      (((await client.callTool({ name: "svc_get_balances", arguments: {} })) as CallToolResult)._meta as { headers: Record<string, string> }).headers;
    const h1 = await balances();
    assert.equal(h1["ratelimit-limit"], String(svc.ctx.config.RATE_LIMIT_READ_PER_MINUTE));
    const remaining1 = Number(h1["ratelimit-remaining"]);
    assert.ok(remaining1 > 0);
    await client.listTools();
    await client.ping();
    await client.listTools();
    await client.callTool({ name: "svc_get_server_time", arguments: {} });
    assert.equal(Number((await balances())["ratelimit-remaining"]), remaining1 - 1, "only the key tool was charged to the key");
    await client.close();
    // /metrics counts the JSON-RPC messages (the first test initialized twice and listed tools once).
    const metrics = await (await fetch(new URL("/metrics", svc.baseUrl))).text();
    const count = (labels: string) =>
      Number(
        metrics
          .split("\n")
          .find((l) => l.startsWith(`mcp_messages_total{${labels}}`))
          ?.split(" ")
          .pop() ?? 0,
      );
    assert.equal(count('method="tools/call",tool="svc_get_server_time"'), 2);
    assert.equal(count('method="tools/call",tool="svc_get_balances"'), 2);
    assert.equal(count('method="tools/list",tool=""'), 3);
    assert.equal(count('method="ping",tool=""'), 1);
    assert.equal(count('method="initialize",tool=""'), 3);
  });

  it("every read tool without required inputs answers, its structured output accepted by the SDK's schema check", async () => {
    const { client } = await connect(svc.mcpUrl, fullKey);
    const { tools } = await client.listTools();
    const reads = tools.filter((t) => t.annotations?.readOnlyHint && !(t.inputSchema.required as string[] | undefined)?.length);
    assert.ok(reads.length >= 3);
    for (const t of reads) {
      // callTool throws when structuredContent does not match the tool's outputSchema.
      const r = (await client.callTool({ name: t.name, arguments: {} })) as CallToolResult;
      if (r.isError) assert.match(String(JSON.parse(text(r)).code), /^[A-Z_]+$/, t.name);
      else assert.ok(t.outputSchema === undefined || r.structuredContent, t.name);
    }
    await client.close();
  });

  it("a union of objects gets an object output schema: the market-depth tool answers both kinds, checked by the SDK", async () => {
    const { client } = await connect(svc.mcpUrl, fullKey);
    const depth = (await client.listTools()).tools.find((t) => t.name === "svc_get_market_depth");
    assert.equal(depth?.outputSchema?.type, "object");
    assert.equal((depth?.outputSchema?.oneOf as unknown[] | undefined)?.length, 2, "the branches stay (ladder, orderbook)");
    const listed = await fetch(`${svc.baseUrl}/discover/markets`, { headers: { authorization: `Bearer ${fullKey}` } });
    const { markets } = (await listed.json()) as { markets: { address: string; pricingModel: string }[] };
    const kinds = new Set<unknown>();
    for (const model of ["ORDERBOOK", "automated"]) {
      const m = markets.find((x) => x.pricingModel === model);
      assert.ok(m, `a demo ${model} market`);
      // callTool throws when structuredContent does not match the tool's outputSchema.
      const r = (await client.callTool({ name: "svc_get_market_depth", arguments: { address: m.address } })) as CallToolResult;
      assert.equal(r.isError, undefined, text(r));
      assert.deepEqual(r.structuredContent, JSON.parse(text(r)));
      kinds.add((r.structuredContent as { kind: unknown }).kind);
    }
    assert.equal(kinds.size, 2);
    await client.close();
  });

  it("a response that may be something other than an object gets no output schema", () => {
    const loose = { ...placeThing, response: z.union([z.object({ a: z.string() }), z.string()]) };
    assert.equal(bindingOf(loose).tool.outputSchema, undefined);
    const objects = {
      ...placeThing,
      response: z.union([z.object({ a: z.string() }), z.discriminatedUnion("k", [z.object({ k: z.literal("x") }), z.object({ k: z.literal("y") })])]),
    };
    assert.equal(bindingOf(objects).tool.outputSchema?.type, "object");
  });

  it("refuses a connection without a key with 401 and the protected-resource metadata", async () => {
    await assert.rejects(connect(svc.mcpUrl));
    await assert.rejects(connect(svc.mcpUrl, "svc_not-a-real-key"));
    const res = await fetch(svc.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { code: string }).code, "AUTH_REQUIRED");
    const challenge = res.headers.get("www-authenticate") ?? "";
    const metaUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    assert.equal(metaUrl, `${svc.mcpUrl}/.well-known/oauth-protected-resource`);
    const meta = (await (await fetch(metaUrl as string)).json()) as { resource: string; bearer_methods_supported: string[] };
    assert.equal(meta.resource, svc.mcpUrl);
    assert.deepEqual(meta.bearer_methods_supported, ["header"]);
    // X-API-Key is accepted as well.
    const alias = await fetch(svc.mcpUrl, {
      method: "POST",
      headers: { "x-api-key": fullKey, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    assert.equal(alias.status, 200);
  });

  it("GET and DELETE on /mcp answer 405 (stateless: no stream, no session)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(svc.mcpUrl, { method, headers: { authorization: `Bearer ${fullKey}`, accept: "text/event-stream" } });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get("allow"), "POST");
    }
  });

  it("a wallet-proof write: proof checked, idempotent replay, public record with surface mcp, problems as tool errors", async () => {
    const { client } = await connect(customUrl, fullKey);
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "svc_place_thing");
    assert.deepEqual([...((tool?.inputSchema.required as string[]) ?? [])].sort(), [
      "amount",
      "idempotencyKey",
      "proofNonce",
      "signatureTimestamp",
      "thingId",
      "walletSignature",
    ]);

    const intent = { thingId: "t-1", amount: "1500000" };
    const { nonce } = await issueNonce(svc.ctx.db, NOW);
    const ts = Math.floor(NOW / 1000);
    const message = mcpProofMessage({
      agentId: fullAgent,
      apiKeyId: fullKeyId,
      tool: "svc_place_thing",
      scope: "trade:execute",
      chainId: svc.ctx.config.CHAIN_ID,
      walletAddress: account.address,
      resourceId: "t-1",
      payloadHash: payloadHash(intent),
      nonce,
      timestamp: ts,
    });
    const walletSignature = await account.signMessage({ message });
    const args = { ...intent, idempotencyKey: "idem-1", walletSignature, signatureTimestamp: ts, proofNonce: nonce };

    const ok = (await client.callTool({ name: "svc_place_thing", arguments: args })) as CallToolResult;
    assert.equal(ok.isError, undefined, text(ok));
    assert.deepEqual(ok.structuredContent, { thingId: "t-1", amount: "1500000", surface: "mcp", agentId: fullAgent, serial: 1 });

    // The same proof again: the nonce is spent.
    const replayedProof = (await client.callTool({ name: "svc_place_thing", arguments: args })) as CallToolResult;
    assert.equal(replayedProof.isError, true);
    const problem = JSON.parse(text(replayedProof)) as { code: string; status: number; type: string };
    assert.equal(problem.code, "WALLET_AUTH_INVALID");
    assert.equal(problem.status, 401);
    assert.match(problem.type, /\/problems\/WALLET_AUTH_INVALID$/);

    // A fresh proof with the same idempotency key replays the stored response (the handler does not run again).
    const n2 = (await issueNonce(svc.ctx.db, NOW)).nonce;
    const sig2 = await account.signMessage({
      message: mcpProofMessage({
        agentId: fullAgent,
        apiKeyId: fullKeyId,
        tool: "svc_place_thing",
        scope: "trade:execute",
        chainId: svc.ctx.config.CHAIN_ID,
        walletAddress: account.address,
        resourceId: "t-1",
        payloadHash: payloadHash(intent),
        nonce: n2,
        timestamp: ts,
      }),
    });
    const replay = (await client.callTool({ name: "svc_place_thing", arguments: { ...args, walletSignature: sig2, proofNonce: n2 } })) as CallToolResult;
    assert.equal(replay.isError, undefined, text(replay));
    assert.equal((replay.structuredContent as { serial: number }).serial, 1);
    assert.equal((replay._meta as { headers: Record<string, string> }).headers["idempotent-replayed"], "true");

    // A signature over a different intent fails (and leaves the nonce unspent).
    const n3 = (await issueNonce(svc.ctx.db, NOW)).nonce;
    const sig3 = await account.signMessage({
      message: mcpProofMessage({
        agentId: fullAgent,
        apiKeyId: fullKeyId,
        tool: "svc_place_thing",
        scope: "trade:execute",
        chainId: svc.ctx.config.CHAIN_ID,
        walletAddress: account.address,
        resourceId: "t-1",
        payloadHash: payloadHash({ ...intent, amount: "1" }),
        nonce: n3,
        timestamp: ts,
      }),
    });
    const wrong = (await client.callTool({
      name: "svc_place_thing",
      arguments: { ...args, idempotencyKey: "idem-2", walletSignature: sig3, proofNonce: n3 },
    })) as CallToolResult;
    assert.equal(JSON.parse(text(wrong)).code, "WALLET_AUTH_INVALID");
    const [unspent] = await svc.ctx.db.query<{ used_at: unknown }>(`SELECT used_at FROM api_nonces WHERE nonce = $1`, [n3]);
    assert.equal(unspent.used_at, null);

    // Without idempotencyKey the REST chain answers its own problem.
    const n4 = (await issueNonce(svc.ctx.db, NOW)).nonce;
    const sig4 = await account.signMessage({
      message: mcpProofMessage({
        agentId: fullAgent,
        apiKeyId: fullKeyId,
        tool: "svc_place_thing",
        scope: "trade:execute",
        chainId: svc.ctx.config.CHAIN_ID,
        walletAddress: account.address,
        resourceId: "t-1",
        payloadHash: payloadHash(intent),
        nonce: n4,
        timestamp: ts,
      }),
    });
    const { idempotencyKey: _drop, ...noKey } = { ...args, walletSignature: sig4, proofNonce: n4 };
    const missing = (await client.callTool({ name: "svc_place_thing", arguments: noKey })) as CallToolResult;
    assert.equal(JSON.parse(text(missing)).code, "IDEMPOTENCY_KEY_REQUIRED");

    // A refusal's record joins a commit tick after its answer left; the public listing waits for it the same way.
    await groupCommitterOf(svc.ctx.db)?.sealedSettled();
    const records = await svc.ctx.db.query<{ operation: string; surface: string; status: number }>(
      `SELECT operation, surface, status FROM api_call_records WHERE agent_id = $1 AND operation = 'placeThing' ORDER BY id`,
      [fullAgent],
    );
    assert.deepEqual(
      records.map((r) => [r.surface, Number(r.status)]),
      [
        ["mcp", 200],
        ["mcp", 200],
        ["mcp", 400],
      ],
    );
    await client.close();
  });

  it("svc_rotate_api_key follows the REST rule: the key alone rotates, with or without a bound wallet; no proof fields", async () => {
    const db = svc.ctx.db;
    const owner = privateKeyToAccount("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
    const tool = (await (await connect(svc.mcpUrl, readKey)).client.listTools()).tools.find((t) => t.name === "svc_rotate_api_key");
    assert.deepEqual(Object.keys(tool?.inputSchema.properties ?? {}).sort(), ["idempotencyKey", "keyId"], "no walletAddress a stranger's wallet could satisfy");
    for (const walletAddress of [owner.address, undefined]) {
      const agentId = await createAgent(
        db,
        {
          name: `mcp-rotate-${walletAddress ? "wallet" : "nowallet"}`,
          tier: "read-only",
          scopes: ["keys:read"],
          registrationPath: "admin",
          ...(walletAddress ? { walletAddress } : {}),
        },
        NOW,
      );
      const { apiKey, keyId } = await issueKey(db, agentId, NOW);
      const { client } = await connect(svc.mcpUrl, apiKey);
      const rotated = (await client.callTool({ name: "svc_rotate_api_key", arguments: { keyId, idempotencyKey: `rot-${keyId}` } })) as CallToolResult;
      assert.notEqual(rotated.isError, true, text(rotated));
      assert.equal((rotated.structuredContent as { revokedKeyId: string }).revokedKeyId, keyId);
      const fresh = rotated.structuredContent as { apiKey: string; keyId: string };
      // The same over REST with the new key: one rule on both surfaces.
      const rest = await fetch(`${svc.baseUrl}/keys/${fresh.keyId}/rotate`, {
        method: "POST",
        headers: { authorization: `Bearer ${fresh.apiKey}`, "idempotency-key": `rest-${keyId}` },
      });
      assert.equal(rest.status, 201, await rest.text());
      await client.close();
    }
  });

  it("a key without the tool's scope gets FORBIDDEN as a tool error, and its nonce stays unspent", async () => {
    const { client } = await connect(customUrl, readKey);
    const { nonce } = await issueNonce(svc.ctx.db, NOW);
    const r = (await client.callTool({
      name: "svc_place_thing",
      arguments: {
        thingId: "x",
        amount: "1",
        idempotencyKey: "k",
        walletAddress: account.address,
        walletSignature: "0x00",
        signatureTimestamp: 1,
        proofNonce: nonce,
      },
    })) as CallToolResult;
    assert.equal(r.isError, true);
    assert.equal(JSON.parse(text(r)).code, "FORBIDDEN");
    const [row] = await svc.ctx.db.query<{ used_at: unknown }>(`SELECT used_at FROM api_nonces WHERE nonce = $1`, [nonce]);
    assert.equal(row.used_at, null);
    const unknown = (await client.callTool({ name: "svc_no_such_tool", arguments: {} })) as CallToolResult;
    assert.equal(unknown.isError, true);
    assert.equal(JSON.parse(text(unknown)).code, "NOT_FOUND");
    await client.close();
  });

  it("unknown arguments and missing path parameters are INVALID_PAYLOAD tool errors naming the field", async () => {
    const { client } = await connect(customUrl, fullKey);
    const extra = (await client.callTool({ name: "svc_get_server_time", arguments: { verbose: true } })) as CallToolResult;
    assert.equal(extra.isError, true);
    const p1 = JSON.parse(text(extra)) as { code: string; field: string };
    assert.deepEqual([p1.code, p1.field], ["INVALID_PAYLOAD", "verbose"]);
    const noParam = (await client.callTool({
      name: "svc_place_thing",
      arguments: { amount: "1", idempotencyKey: "k", walletSignature: "0x1", signatureTimestamp: 1, proofNonce: "n" },
    })) as CallToolResult;
    const p2 = JSON.parse(text(noParam)) as { code: string; field: string; location: string };
    assert.deepEqual([p2.code, p2.field, p2.location], ["INVALID_PAYLOAD", "thingId", "params"]);
    await client.close();
  });
});
