import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { agentByWallet } from "../../domain/auth/agents";
import { issueKey, revokeAgentKeys } from "../../domain/auth/api-keys";
import { apiBase } from "../../domain/auth/links";
import { verifyWalletProof } from "../../domain/auth/wallet-proof/verify";
import { walletProofFields } from "../registration/schemas";

/** POST /keys/recover: a wallet proof (svc-api-key-recovery:) replaces every key of the wallet's agent. */
export const recoverKey = defineOperation({
  id: "recoverKey",
  method: "POST",
  path: "/keys/recover",
  summary: "Recover an agent's API key with a wallet proof (revokes its other keys)",
  description: "signedMessage is exactly svc-api-key-recovery:{walletLowercase}:{nonce}. Works only for agents with a bound wallet.",
  category: "keys",
  permission: "wallet-proof",
  tier: "read-only",
  scopes: [],
  rateClass: "write",
  charged: true,
  idempotency: "required",
  ipLimit: "recovery",
  request: { body: z.strictObject(walletProofFields) },
  status: 201,
  response: z.object({
    agentId: z.uuid(),
    name: z.string(),
    keyId: z.string(),
    apiKey: z.string(),
    revokedKeys: z.number().int().min(0),
    rotateKey: z.string(),
  }),
  secretFields: ["apiKey"],
  errors: ["WALLET_AUTH_INVALID", "WALLET_ADDRESS_MISMATCH", "AGENT_NOT_FOUND"],
  mcpTool: "svc_recover_api_key",
  async handler(ctx, { body }, call) {
    const now = ctx.clock.now();
    const out = await ctx.db.transaction(async (tx) => {
      const wallet = await verifyWalletProof(tx, "recovery", body, now);
      const agent = await agentByWallet(tx, wallet);
      if (!agent) throw new ApiError("AGENT_NOT_FOUND", `no agent has the wallet ${wallet}`);
      const [{ n }] = await tx.query<{ n: string | number }>(`SELECT count(*) AS n FROM api_keys WHERE agent_id = $1 AND revoked_at IS NULL`, [agent.id]);
      await revokeAgentKeys(tx, agent.id, now);
      return { agent, key: await issueKey(tx, agent.id, now), revoked: Number(n) };
    });
    return {
      agentId: out.agent.id,
      name: out.agent.name,
      keyId: out.key.keyId,
      apiKey: out.key.apiKey,
      revokedKeys: out.revoked,
      rotateKey: `${apiBase(call.origin)}/keys/${out.key.keyId}/rotate`,
    };
  },
});
