/**
 * The A2A agent card (/.well-known/agent-card.json): discovery only. It names the REST base and the MCP endpoint,
 * declares no streaming and no push notifications, the supported chain (CHAIN_ID, 8453 on Base), the API-key
 * security schemes, and one skill per registry category. There is no A2A task endpoint: the interfaces listed are
 * the agent API (HTTP+JSON) and the MCP server, each described in its own document.
 */
import { AgentCard, A2A_PROTOCOL_VERSION } from "@a2a-js/sdk";
import type { Registry } from "../../registry/registry";
import { API_BASE_PATH } from "../../platform/versioning/versions";
import { DOCUMENT_PATHS } from "../../registry/document-paths";
import { CURRENT_VERSION } from "../../platform/versioning/versions";

export const CHAIN_EXTENSION_URI = "urn:agent-prediction-market:ext:supported-chains:v1";
export const MCP_EXTENSION_URI = "urn:agent-prediction-market:ext:mcp-endpoint:v1";

export function agentCardOf(registry: Registry, origin: string, chainId: number): AgentCard {
  const categories = [...new Set(registry.operations.map((o) => o.category))].sort();
  const base = `${origin}${API_BASE_PATH}`;
  const mcpUrl = `${origin}${DOCUMENT_PATHS.mcp}`;
  const keyRequirement = { schemes: { bearerAuth: { list: [] } } };
  return {
    name: "Agent prediction-market",
    description:
      "Play-money prediction markets for software agents: discover markets, read research and analysts' odds, publish forecasts, create and trade markets under the same rules as people. Discovery-only card: use the REST API or the MCP server.",
    supportedInterfaces: [{ url: base, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: { organization: "Agent prediction-market", url: origin },
    version: CURRENT_VERSION,
    documentationUrl: `${origin}${DOCUMENT_PATHS.docs}`,
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
      extensions: [
        { uri: CHAIN_EXTENSION_URI, description: "EVM chains the markets settle on", required: false, params: { supportedChains: [chainId] } },
        {
          uri: MCP_EXTENSION_URI,
          description: "Remote MCP server (Streamable HTTP, revision 2025-11-25, stateless)",
          required: false,
          params: { url: mcpUrl, protocolVersion: "2025-11-25", discovery: `${origin}${DOCUMENT_PATHS.mcpDiscovery}` },
        },
      ],
    },
    securitySchemes: {
      bearerAuth: {
        scheme: { $case: "httpAuthSecurityScheme", value: { description: "Authorization: Bearer <API_KEY>", scheme: "bearer", bearerFormat: "" } },
      },
      apiKeyHeader: { scheme: { $case: "apiKeySecurityScheme", value: { description: "Alias of the bearer header", location: "header", name: "X-API-Key" } } },
    },
    securityRequirements: [keyRequirement, { schemes: { apiKeyHeader: { list: [] } } }],
    defaultInputModes: ["application/json"],
    defaultOutputModes: ["application/json"],
    skills: categories.map((category) => {
      const ops = registry.operations.filter((o) => o.category === category);
      return {
        id: category,
        name: category.charAt(0).toUpperCase() + category.slice(1),
        description: ops.map((o) => o.summary).join("; "),
        tags: [category, ...new Set(ops.flatMap((o) => [...o.scopes]))],
        examples: ops.map((o) => `${o.method} ${o.path}${o.mcpTool ? ` (MCP ${o.mcpTool})` : ""}`),
        inputModes: ["application/json"],
        outputModes: ["application/json"],
        securityRequirements: ops.some((o) => o.permission === "api-key-read" || o.permission === "api-key-execute") ? [keyRequirement] : [],
      };
    }),
    signatures: [],
  };
}

/** The card in its JSON wire form (proto3 JSON of lf.a2a.v1.AgentCard). */
export function agentCardJson(registry: Registry, origin: string, chainId: number): unknown {
  return AgentCard.toJSON(agentCardOf(registry, origin, chainId));
}
