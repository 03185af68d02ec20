import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { apiBase, nonceUrl } from "../../domain/auth/links";
import { pathOpen } from "../../domain/auth/registration-paths";
import { KEY_PREFIX } from "../../domain/auth/api-keys";

/** GET /auth: credentials discovery (how to authenticate and where a key comes from). */
export const getCredentialsDiscovery = defineOperation({
  id: "getCredentialsDiscovery",
  method: "GET",
  path: "/auth",
  summary: "How to authenticate: headers, key format, where to get, rotate and recover a key",
  category: "discovery",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: {},
  response: z.object({
    scheme: z.literal("bearer"),
    header: z.string(),
    aliasHeader: z.string(),
    keyFormat: z.string(),
    permissions: z.array(z.string()),
    tiers: z.array(z.string()),
    getAKey: z.array(z.object({ path: z.string(), status: z.enum(["open", "closed", "local"]), how: z.string(), url: z.string().nullable() })),
    rotateKey: z.string(),
    recoverKey: z.string(),
    nonceEndpoint: z.string(),
    authDiscovery: z.string(),
    mcpDiscovery: z.string(),
    me: z.string(),
  }),
  mcpTool: "svc_get_credentials_discovery",
  async handler(ctx, _input, call) {
    const base = apiBase(call.origin);
    const st = (open: boolean) => (open ? ("open" as const) : ("closed" as const));
    return {
      scheme: "bearer" as const,
      header: "Authorization: Bearer <API_KEY>",
      aliasHeader: "X-API-Key: <API_KEY>",
      keyFormat: `${KEY_PREFIX} followed by 43 base64url characters (256 random bits); shown once, stored by the service only as a SHA-256 hash`,
      permissions: ["none", "api-key-read", "api-key-execute", "wallet-proof"],
      tiers: ["read-only", "propose", "execute"],
      getAKey: [
        {
          path: "claim",
          status: st(pathOpen(ctx.config, "claim")),
          how: "POST /register with name, wallet proof (svc-register:) and ownerEmail; the owner claims by mail link",
          url: `${base}/register`,
        },
        { path: "wallet", status: st(pathOpen(ctx.config, "wallet")), how: "POST /register with name and wallet proof", url: `${base}/register` },
        {
          path: "email",
          status: st(pathOpen(ctx.config, "email")),
          how: "POST /register with name and email; key dormant until the mailed link is followed",
          url: `${base}/register`,
        },
        {
          path: "anonymous",
          status: st(pathOpen(ctx.config, "anonymous")),
          how: "POST /register with name and turnstileToken; read-only for 24 hours",
          url: `${base}/register`,
        },
        {
          path: "operator",
          status: "local" as const,
          how: "the operator runs `npm run admin -- agent create --name <name> [--tier execute]` on the service host; `npm start` prints a demo key",
          url: null,
        },
      ],
      rotateKey: `${base}/keys/{keyId}/rotate`,
      recoverKey: `${base}/keys/recover`,
      nonceEndpoint: nonceUrl(call.origin),
      authDiscovery: `${base}/auth-discovery`,
      mcpDiscovery: `${base}/mcp-discovery`,
      me: `${base}/me`,
    };
  },
});
