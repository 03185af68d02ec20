/** Where each published document lives, relative to the service origin: one list the catalog and the docs share. */
import { API_BASE_PATH } from "../platform/versioning/versions";

export const DOCUMENT_PATHS = {
  openapi: `${API_BASE_PATH}/openapi.json`,
  openapiRoot: "/openapi.json",
  docs: `${API_BASE_PATH}/docs`,
  capabilities: `${API_BASE_PATH}/discover/capabilities`,
  catalog: `${API_BASE_PATH}/catalog.json`,
  changelog: `${API_BASE_PATH}/changelog.atom`,
  changelogSigningKey: `${API_BASE_PATH}/changelog/signing-key`,
  mcp: "/mcp",
  mcpDiscovery: `${API_BASE_PATH}/mcp-discovery`,
  mcpProtectedResource: "/mcp/.well-known/oauth-protected-resource",
  agentCard: "/.well-known/agent-card.json",
  metrics: "/metrics",
} as const;

export function documentUrls(origin: string): Record<keyof typeof DOCUMENT_PATHS, string> {
  return Object.fromEntries(Object.entries(DOCUMENT_PATHS).map(([k, p]) => [k, `${origin}${p}`])) as Record<keyof typeof DOCUMENT_PATHS, string>;
}
