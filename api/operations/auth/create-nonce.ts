import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { issueNonce, NONCE_TTL_MS } from "../../domain/auth/wallet-proof/nonces";

/** POST /api/auth/nonce (host root): a single-use nonce for one wallet proof. */
export const createAuthNonce = defineOperation({
  id: "createAuthNonce",
  method: "POST",
  path: "/api/auth/nonce",
  root: true,
  summary: "Nonce for a wallet proof (single-use, 300 s)",
  description:
    "Returns a fresh nonce to put in a wallet-proof message (svc-register:, svc-api-key-recovery:, svc-bind-wallet:, svc-mcp-auth:). signedNonce is the server's HMAC-SHA256 of the nonce; keep it or ignore it. No Idempotency-Key: every call makes a new nonce.",
  category: "auth",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "write",
  charged: true,
  idempotency: "exempt",
  request: {},
  response: z.object({
    nonce: z.string().describe("32 lower-case hex characters"),
    signedNonce: z.string().describe("HMAC-SHA256 (hex) of the nonce under the server's secret"),
    expiresAt: z.string().describe("ISO instant after which the nonce is refused"),
    ttlSeconds: z.number().int().positive(),
  }),
  mcpTool: "svc_create_auth_nonce",
  async handler(ctx) {
    const n = await issueNonce(ctx.db, ctx.clock.now());
    return { nonce: n.nonce, signedNonce: n.signedNonce, expiresAt: new Date(n.expiresAt).toISOString(), ttlSeconds: NONCE_TTL_MS / 1000 };
  },
});
