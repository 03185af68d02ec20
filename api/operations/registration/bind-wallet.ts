import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { AGENT_SELF_WRITE, walletProofFields } from "./schemas";
import { bindWalletTo, agentById, scopesOf, setGrants } from "../../domain/auth/agents";
import { ApiError } from "../../platform/errors/api-error";
import { AGENT_TIERS, GRANTS, SCOPES, unionScopes } from "../../domain/auth/scopes";
import { verifyWalletProof } from "../../domain/auth/wallet-proof/verify";

/** POST /agents/me/bind-wallet: binds a wallet (svc-bind-wallet proof) and grants the wallet path's scopes. */
export const bindWallet = defineOperation({
  id: "bindWallet",
  method: "POST",
  path: "/agents/me/bind-wallet",
  summary: "Bind a wallet to the agent with a wallet proof (grants the wallet scopes and tier execute)",
  description:
    "signedMessage is exactly svc-bind-wallet:{agentId}:{walletAddressLowercase}:{nonce} (agentId from GET /me, nonce from POST /api/auth/nonce). The agent's ledger account does not change.",
  ...AGENT_SELF_WRITE,
  request: { body: z.strictObject(walletProofFields) },
  response: z.object({ agentId: z.uuid(), walletAddress: z.string(), tier: z.enum(AGENT_TIERS), scopes: z.array(z.enum(SCOPES)), ledgerAccount: z.string() }),
  errors: ["WALLET_AUTH_INVALID", "WALLET_ADDRESS_MISMATCH", "AGENT_NOT_FOUND", "AGENT_ALREADY_EXISTS", "CONFLICT"],
  mcpTool: null,
  async handler(ctx, { body }, call) {
    const p = call.principal;
    const now = ctx.clock.now();
    return ctx.db.transaction(async (tx) => {
      const row = await agentById(tx, p.agentId);
      if (!row) throw new ApiError("AGENT_NOT_FOUND", `agent ${p.agentId} no longer exists`);
      if (row.wallet_address) throw new ApiError("CONFLICT", "this agent already has a wallet bound", { reason: "WALLET_ALREADY_BOUND" });
      const wallet = await verifyWalletProof(tx, "bind-wallet", body, now, p.agentId);
      await bindWalletTo(tx, p.agentId, wallet);
      const scopes = unionScopes(scopesOf(row), GRANTS.wallet);
      await setGrants(tx, p.agentId, { tier: "execute", scopes, clearExpiry: true });
      return { agentId: p.agentId, walletAddress: wallet, tier: "execute" as const, scopes, ledgerAccount: row.ledger_account };
    });
  },
});
