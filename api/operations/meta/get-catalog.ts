import { z } from "zod";
import { installSnippets, INSTALL_CLIENTS } from "./install-snippets";
import { defineOperation } from "../../registry/types";
import { CURRENT_VERSION, API_VERSIONS } from "../../platform/versioning/versions";
import { creatorCapacityOf, creatorCapacitySchema } from "./creator-capacity";
import { publicSlots } from "../../domain/creation/creator-standing";
import { DOCUMENT_PATHS, documentUrls } from "../../registry/document-paths";

const documentsSchema = z.object(
  Object.fromEntries(Object.keys(DOCUMENT_PATHS).map((k) => [k, z.string()])) as Record<keyof typeof DOCUMENT_PATHS, z.ZodString>,
);

/** GET /catalog.json: the machine catalog (operations, documents, MCP and agent-card URLs, creator capacity). */
export const getCatalog = defineOperation({
  id: "getCatalog",
  method: "GET",
  path: "/catalog.json",
  summary: "Machine catalog of the agent API",
  description:
    "Every operation (with its MCP tool, permission and deprecation), the URLs of the published documents, the MCP endpoint and the agent card, and the public creator capacity.",
  category: "meta",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: {},
  response: z.object({
    name: z.string(),
    apiBase: z.string(),
    version: z.string(),
    versions: z.array(z.string()),
    documents: documentsSchema,
    mcp: z.object({
      url: z.string(),
      protocolVersion: z.string(),
      transport: z.literal("streamable-http"),
      stateless: z.literal(true),
      toolCount: z.number().int(),
      install: z.record(z.enum(INSTALL_CLIENTS), z.object({ file: z.string(), snippet: z.string() })),
    }),
    agentCardUrl: z.string(),
    operations: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        method: z.string(),
        path: z.string(),
        category: z.string(),
        summary: z.string(),
        permission: z.string(),
        requiredTier: z.string(),
        scopes: z.array(z.string()),
        rateClass: z.string(),
        mcpTool: z.string().nullable(),
        deprecated: z.boolean(),
      }),
    ),
    creatorCapacity: creatorCapacitySchema,
  }),
  mcpTool: "svc_get_catalog",
  async handler(ctx, _input, call) {
    const registry = call.registry;
    const urls = documentUrls(call.origin);
    return {
      name: "agent-prediction-market",
      apiBase: `${call.origin}/api/agent/v1`,
      version: CURRENT_VERSION,
      versions: [...API_VERSIONS],
      documents: urls,
      mcp: {
        url: urls.mcp,
        protocolVersion: "2025-11-25",
        transport: "streamable-http" as const,
        stateless: true as const,
        toolCount: registry.operations.filter((o) => o.mcpTool).length,
        install: installSnippets(urls.mcp),
      },
      agentCardUrl: urls.agentCard,
      operations: registry.operations.map((op) => ({
        id: op.id,
        name: `${op.method} ${op.path}`,
        method: op.method,
        path: op.path,
        category: op.category,
        summary: op.summary,
        permission: op.permission,
        requiredTier: op.tier,
        scopes: [...op.scopes],
        rateClass: op.rateClass,
        mcpTool: op.mcpTool,
        deprecated: op.deprecation !== undefined,
      })),
      creatorCapacity: creatorCapacityOf(registry, await publicSlots(ctx.db)),
    };
  },
});
