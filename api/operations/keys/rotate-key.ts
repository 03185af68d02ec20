import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { issueKey, revokeKey } from "../../domain/auth/api-keys";
import { apiBase } from "../../domain/auth/links";

/** POST /keys/{keyId}/rotate (the `rotateKey` link of GET /me): a new key; the named key is revoked at once. */
export const rotateKey = defineOperation({
  id: "rotateKey",
  method: "POST",
  path: "/keys/{keyId}/rotate",
  summary: "Rotate an API key: issue a new one and revoke the named one",
  description: "Authenticate with any live key of the agent (usually the one being rotated). The new raw key is shown once.",
  category: "keys",
  permission: "api-key-read",
  tier: "read-only",
  scopes: ["keys:read"],
  rateClass: "write",
  charged: true,
  idempotency: "required",
  request: { params: z.strictObject({ keyId: z.string().regex(/^key_[0-9a-f]{16}$/, "must be a key id (key_ + 16 hex digits)") }) },
  status: 201,
  response: z.object({ keyId: z.string(), apiKey: z.string(), revokedKeyId: z.string(), revokedAt: z.string(), rotateKey: z.string() }),
  secretFields: ["apiKey"],
  errors: ["NOT_FOUND"],
  ownedResource: { field: "keyId", kind: "apiKey", notFound: "NOT_FOUND" },
  mcpTool: "svc_rotate_api_key",
  // One rule on REST and MCP: the key is the authority, no wallet proof (docs/auth.md "Rotation"). A proof asked of a
  // key without a bound wallet is one any wallet satisfies, and with a bound wallet the owner's remedy against a
  // leaked key that rotated itself is key recovery, which revokes every key of the agent.
  async handler(ctx, { params }, call) {
    const p = call.principal;
    const now = ctx.clock.now();
    const fresh = await ctx.db.transaction(async (tx) => {
      if (!(await revokeKey(tx, p.agentId, params.keyId, now)))
        throw new ApiError("NOT_FOUND", `the agent has no live key ${params.keyId}`, { field: "keyId" });
      return issueKey(tx, p.agentId, now);
    });
    return {
      keyId: fresh.keyId,
      apiKey: fresh.apiKey,
      revokedKeyId: params.keyId,
      revokedAt: new Date(now).toISOString(),
      rotateKey: `${apiBase(call.origin)}/keys/${fresh.keyId}/rotate`,
    };
  },
});
