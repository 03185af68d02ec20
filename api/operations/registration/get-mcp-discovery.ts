import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { nonceUrl } from "../../domain/auth/links";
import { registrationDiscovery } from "../../domain/auth/registration-paths";
import { SCOPES } from "../../domain/auth/scopes";

const scopeList = z.array(z.enum(SCOPES));
const registrationSchema = z.object({
  registerUrl: z.string(),
  accountCredentialUrl: z.string(),
  closedDetail: z.string(),
  paths: z.array(
    z.object({
      kind: z.enum(["email", "wallet", "anonymous"]),
      status: z.enum(["open", "closed"]),
      description: z.string(),
      requires: z.array(z.enum(["email", "walletProof", "turnstileToken"])),
      grantsScopes: scopeList,
      ttlHours: z.number().int().positive().nullable(),
    }),
  ),
  claim: z.object({
    status: z.enum(["open", "closed"]),
    description: z.string(),
    requires: z.array(z.enum(["walletProof", "ownerEmail"])),
    grantsScopes: scopeList,
    unlocksScopes: scopeList,
    claimLinkTtlHours: z.literal(24),
    resendClaimLinkUrl: z.string(),
  }),
  turnstileSiteKey: z.string().nullable(),
  upgradeUrls: z.object({ bindEmail: z.string(), bindWallet: z.string(), recoverKey: z.string() }),
});

/** GET /mcp-discovery: where the MCP server is, how it authenticates, and how to get a key (registration). */
export const getMcpDiscovery = defineOperation({
  id: "getMcpDiscovery",
  method: "GET",
  path: "/mcp-discovery",
  summary: "MCP endpoint, auth and the registration paths with their status",
  category: "discovery",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: {},
  response: z.object({
    mcpUrl: z.string(),
    transport: z.literal("streamable-http"),
    protocolVersion: z.string(),
    protectedResourceMetadata: z.string(),
    auth: z.object({ type: z.literal("bearer"), header: z.string(), alias: z.string() }),
    toolPrefix: z.literal("svc_"),
    tools: z.array(z.string()),
    restOnly: z.array(z.string()),
    walletProof: z.object({ challenge: z.string(), nonceEndpoint: z.string(), windowSeconds: z.number().int() }),
    registration: registrationSchema,
  }),
  mcpTool: "svc_get_mcp_discovery",
  async handler(ctx, _input, call) {
    const mcpUrl = `${call.origin}/mcp`;
    return {
      mcpUrl,
      transport: "streamable-http" as const,
      protocolVersion: "2025-11-25",
      protectedResourceMetadata: `${mcpUrl}/.well-known/oauth-protected-resource`,
      auth: { type: "bearer" as const, header: "Authorization: Bearer <API_KEY>", alias: "X-API-Key: <API_KEY>" },
      toolPrefix: "svc_" as const,
      tools: call.registry.operations.flatMap((op) => (op.mcpTool ? [op.mcpTool as string] : [])),
      restOnly: call.registry.operations.filter((op) => !op.mcpTool).map((op) => `${op.method} ${op.path}`),
      walletProof: {
        challenge: "svc-mcp-auth:{agentId}:{apiKeyId}:{tool}:{scope}:{chainId}:{walletAddress}:{resourceId}:{payloadHash}:{nonce}:{timestamp}",
        nonceEndpoint: nonceUrl(call.origin),
        windowSeconds: 300,
      },
      registration: registrationDiscovery(ctx.config, call.origin),
    };
  },
});
