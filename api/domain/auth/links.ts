/** Absolute URLs of the API for documents and mails, built from the origin the caller used. */
import { API_BASE_PATH } from "../../platform/versioning/versions";

export function apiBase(origin: string): string {
  return `${origin}${API_BASE_PATH}`;
}

/** The `links` object of GET /me (spec: every field required). */
export function meLinks(origin: string, keyId: string) {
  const base = apiBase(origin);
  return {
    docs: `${origin}/docs`,
    openapi: `${base}/openapi.json`,
    rotateKey: `${base}/keys/${keyId}/rotate`,
    authDiscovery: `${base}/auth-discovery`,
    webhooksDiscovery: `${base}/webhooks/discovery`,
    mcpDiscovery: `${base}/mcp-discovery`,
    eventsDiscovery: `${base}/events/discovery`,
    marketDataDiscovery: `${base}/market-data/discovery`,
  };
}

export function nonceUrl(origin: string): string {
  return `${origin}/api/auth/nonce`;
}
