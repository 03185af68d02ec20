/**
 * The remote MCP server at /mcp: Streamable HTTP, stateless. Each POST builds a fresh Server and transport (no
 * session id), so any instance answers any request. The API key (Authorization: Bearer, or X-API-Key) is checked
 * with the same authenticate() as REST; without a valid key the answer is 401 pointing at the protected-resource
 * metadata (RFC 9728). A tool call re-enters the app through `app.fetch` with the internal binding
 * (api/transports/middleware/caller.ts), so the REST chain (auth and scopes, rate limit: tools/call is charged, idempotency, validation, the public record)
 * applies unchanged; initialize, ping, tools/list and notifications never reach an operation and are not charged.
 * Before anything, the Host and Origin headers must be this service's (host-guard.ts, the DNS-rebinding guard).
 */
import type { Context, Hono } from "hono";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, LATEST_PROTOCOL_VERSION, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ServiceContext } from "../../context";
import { authenticate, presentedKey } from "../../registry/access";
import type { KeyPrincipal } from "../../domain/auth/principal";
import { ApiError } from "../../platform/errors/api-error";
import { problemOf, problemResponse } from "../../platform/errors/problem";
import { invalidPayload } from "../../platform/errors/invalid-payload";
import type { Registry } from "../../registry/registry";
import type { AnyOperation } from "../../registry/types";
import { originOf } from "../rest/router";
import type { InternalCall } from "../middleware/caller";
import { CURRENT_VERSION } from "../../platform/versioning/versions";
import { argumentErrors, requestOf, toolBindings, type ToolBinding } from "./tools";
import { verifyMcpWalletProof } from "./wallet-proof";
import { hostGuard } from "./host-guard";
import { paymentHeaderOf, withX402 } from "./x402";
import { PAYMENT_SIGNATURE_HEADER } from "../../domain/pm/x402/headers";
import { SCOPES } from "../../domain/auth/scopes";

export const MCP_PATH = "/mcp";
export const PROTECTED_RESOURCE_PATH = `${MCP_PATH}/.well-known/oauth-protected-resource`;
export const MCP_PROTOCOL_VERSION = LATEST_PROTOCOL_VERSION;

/** The gate of the MCP endpoint itself: any valid key (the tools check their own tier and scopes). */
const MCP_GATE: AnyOperation = {
  id: "mcpEndpoint",
  method: "POST",
  path: MCP_PATH,
  root: true,
  summary: "MCP endpoint",
  category: "mcp",
  permission: "api-key-read",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: false,
  idempotency: "exempt",
  request: {},
  response: undefined as never,
  mcpTool: null,
  handler: async () => ({}),
};

export const SERVER_INSTRUCTIONS =
  "Tools of the agent prediction-market API (play money). Each svc_* tool is one REST operation; errors come back as tool errors whose text is an RFC 9457 problem (JSON with code). Writes take idempotencyKey. Wallet-proof tools take walletAddress, walletSignature, signatureTimestamp, proofNonce (svc-mcp-auth challenge).";

function toolError(problem: unknown, meta: Record<string, unknown> = {}): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(problem) }], _meta: meta };
}

const RATE_HEADERS = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "idempotent-replayed", "deprecation", "sunset"];

interface McpRequestState {
  app: Hono;
  ctx: ServiceContext;
  registry: Registry;
  c: Context;
  rawKey: string;
  principal: KeyPrincipal;
  origin: string;
  calls: number;
}

async function callTool(s: McpRequestState, b: ToolBinding, args: Record<string, unknown>, requestMeta: unknown): Promise<CallToolResult> {
  const url = `${s.origin}${MCP_PATH}`;
  const requestId = `${s.c.var.requestId}.${++s.calls}`.slice(0, 128);
  const payment: ReturnType<typeof paymentHeaderOf> = b.op.x402 ? paymentHeaderOf(args, requestMeta) : { errors: [] };
  const bad = [...argumentErrors(b, args), ...payment.errors];
  if (bad.length > 0) {
    const err = invalidPayload(bad);
    return toolError(problemOf(err, url, { requestId }), { status: err.status });
  }
  if (b.op.walletProof) {
    try {
      // The operation's own permission first, so a key that may not call the tool does not burn its nonce.
      const principal = (await authenticate(s.ctx.db, b.op, s.rawKey, s.ctx.clock.now())) ?? s.principal;
      await verifyMcpWalletProof(s.ctx.db, { op: b.op, principal, args, chainId: s.ctx.config.CHAIN_ID, nowMs: s.ctx.clock.now() });
    } catch (err) {
      if (err instanceof ApiError) return toolError(problemOf(err, url, { requestId }), { status: err.status });
      throw err;
    }
  }
  const { path, body, idempotencyKey } = requestOf(b, args);
  const headers: Record<string, string> = { authorization: `Bearer ${s.rawKey}`, "x-request-id": requestId };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
  if (payment.header !== undefined) headers[PAYMENT_SIGNATURE_HEADER] = payment.header;
  const pin = s.c.req.header("svc-version");
  if (pin) headers["svc-version"] = pin;
  // The operator's trusted country header (its proxy set it on this POST /mcp) goes on with the call: the region rule
  // of POST /pm/buy reads it as REST does.
  const region = s.ctx.config.REGION_COUNTRY_HEADER;
  const country = region ? s.c.req.header(region) : undefined;
  if (region && country !== undefined) headers[region] = country;
  const internal: InternalCall = { surface: "mcp", ip: s.c.var.ip, requestId };
  const res = await s.app.fetch(new Request(`${s.origin}${path}`, { method: b.op.method, headers, body }), { internal });
  const text = await res.text();
  const meta: Record<string, unknown> = { status: res.status, requestId };
  const shown = Object.fromEntries(RATE_HEADERS.flatMap((h) => (res.headers.get(h) !== null ? [[h, res.headers.get(h)]] : [])));
  if (Object.keys(shown).length) meta.headers = shown;
  // A document that is not JSON (the Atom change feed) is the tool's text content as it is.
  if (res.ok && b.op.responseContentType) return { content: [{ type: "text", text }], _meta: meta };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = {
      type: `${s.origin}/problems/INTERNAL_ERROR`,
      title: "Internal error",
      status: 500,
      detail: "the operation answered no JSON",
      code: "INTERNAL_ERROR",
    };
  }
  if (!res.ok) return b.op.x402 ? withX402(toolError(json, meta), res, json) : toolError(json, meta);
  const structured = json && typeof json === "object" && !Array.isArray(json) && b.tool.outputSchema ? (json as Record<string, unknown>) : undefined;
  const result: CallToolResult = { content: [{ type: "text", text }], ...(structured ? { structuredContent: structured } : {}), _meta: meta };
  return b.op.x402 ? withX402(result, res, json) : result;
}

function serverFor(s: McpRequestState): Server {
  const server = new Server(
    { name: "agent-prediction-market", title: "Agent prediction-market API", version: CURRENT_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: SERVER_INSTRUCTIONS },
  );
  const tools = toolBindings(s.registry);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...tools.values()].map((b) => b.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const b = tools.get(req.params.name);
    if (!b) return toolError(problemOf(new ApiError("NOT_FOUND", `no tool named ${req.params.name}`), `${s.origin}${MCP_PATH}`));
    return callTool(s, b, (req.params.arguments ?? {}) as Record<string, unknown>, req.params._meta);
  });
  return server;
}

export function protectedResourceMetadata(origin: string): Record<string, unknown> {
  return {
    resource: `${origin}${MCP_PATH}`,
    resource_name: "Agent prediction-market MCP server",
    // `authorization_servers` is left out (RFC 9728: optional): the bearer token is the service's own API key,
    // obtained by registration (/mcp-discovery), not from an OAuth authorization server.
    bearer_methods_supported: ["header"],
    scopes_supported: [...SCOPES],
    resource_documentation: `${origin}/api/agent/v1/docs`,
  };
}

/** Counts each JSON-RPC message by method (a bounded set) and, for tools/call, by tool (registry names only). */
export type McpMessageObserver = (method: string, tool: string) => void;

const KNOWN_METHODS = new Set(["initialize", "ping", "tools/list", "tools/call"]);

function observe(body: unknown, registry: Registry, onMessage: McpMessageObserver): void {
  for (const m of Array.isArray(body) ? body : [body]) {
    const method = m && typeof m === "object" ? (m as { method?: unknown }).method : undefined;
    if (typeof method !== "string") continue;
    const label = KNOWN_METHODS.has(method) ? method : method.startsWith("notifications/") ? "notifications" : "other";
    const name = (m as { params?: { name?: unknown } }).params?.name;
    onMessage(label, label === "tools/call" ? (typeof name === "string" && toolBindings(registry).has(name) ? name : "(unknown)") : "");
  }
}

export function mountMcp(app: Hono, ctx: ServiceContext, registry: Registry, onMessage?: McpMessageObserver): void {
  app.get(PROTECTED_RESOURCE_PATH, (c) => c.json(protectedResourceMetadata(originOf(c, ctx.config.PUBLIC_URL))));
  // Stateless: no standalone SSE stream to open and no session to delete.
  app.on(["GET", "DELETE"], MCP_PATH, (c) =>
    problemResponse(
      new ApiError(
        "METHOD_NOT_ALLOWED",
        `${c.req.method} is not allowed on ${MCP_PATH}: this MCP server is stateless; POST JSON-RPC messages`,
        { allowed: ["POST"] },
        { Allow: "POST" },
      ),
      c.req.url,
    ),
  );
  const guard = hostGuard(ctx.config);
  app.post(MCP_PATH, async (c) => {
    guard.check(c.req.header("host"), c.req.header("origin"));
    const origin = originOf(c, ctx.config.PUBLIC_URL);
    const rawKey = presentedKey(c.req.header("authorization"), c.req.header("x-api-key"));
    let principal: KeyPrincipal | null;
    try {
      principal = await authenticate(ctx.db, MCP_GATE, rawKey, ctx.clock.now());
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        const challenge = `Bearer realm="agent-api", resource_metadata="${origin}${PROTECTED_RESOURCE_PATH}"`;
        throw new ApiError(err.code, err.detail, err.extensions, { ...err.headers, "WWW-Authenticate": challenge });
      }
      throw err;
    }
    const state: McpRequestState = { app, ctx, registry, c, rawKey: rawKey as string, principal: principal as KeyPrincipal, origin, calls: 0 };
    const server = serverFor(state);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    // Parsed once here (for the message counter) and handed to the transport; malformed JSON is left to it. The size
    // limit (413) was applied before this point (api/transports/middleware/body-limit).
    let parsedBody: unknown;
    const text = await c.req.raw.clone().text();
    try {
      parsedBody = JSON.parse(text);
    } catch {
      parsedBody = undefined;
    }
    if (onMessage && parsedBody !== undefined) observe(parsedBody, registry, onMessage);
    try {
      return await transport.handleRequest(c.req.raw, parsedBody === undefined ? {} : { parsedBody });
    } finally {
      await server.close();
    }
  });
}
