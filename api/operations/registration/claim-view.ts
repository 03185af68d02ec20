/** AgentClaimResponse (ours: the spec names the record, not its fields) and the claim path's open check. */
import { z } from "zod";
import type { ServiceContext } from "../../context";
import { ApiError } from "../../platform/errors/api-error";
import { agentById, scopesOf } from "../../domain/auth/agents";

import { AGENT_TIERS, CLAIM_UNLOCKS, SCOPES } from "../../domain/auth/scopes";
import type { LinkRow } from "../../domain/auth/claim-links";
import type { SqlRunner } from "../../../relayer/db/client";

export const agentClaimSchema = z.object({
  agentId: z.uuid(),
  name: z.string(),
  walletAddress: z.string().nullable(),
  ownerEmail: z.string(),
  status: z.enum(["pending", "claimed"]),
  tier: z.enum(AGENT_TIERS),
  scopes: z.array(z.enum(SCOPES)),
  unlocksScopes: z.array(z.enum(SCOPES)),
  claimedAt: z.string().nullable(),
  linkExpiresAt: z.string(),
});

export function requireClaimOpen(ctx: ServiceContext): void {
  if (!ctx.config.REGISTRATION_CLAIM_OPEN) {
    throw new ApiError("FEATURE_DISABLED", "claimed-agent registration and claims are closed on this service", {
      reason: "AGENT_REGISTRATION_CLOSED",
      path: "claim",
    });
  }
}

export async function claimView(db: SqlRunner, link: LinkRow): Promise<z.input<typeof agentClaimSchema>> {
  const row = await agentById(db, link.agent_id);
  if (!row) throw new ApiError("EXPIRED_TOKEN", "the agent this link names no longer exists", { reason: "UNKNOWN" });
  return {
    agentId: row.id,
    name: row.name,
    walletAddress: row.wallet_address,
    ownerEmail: link.email,
    status: row.claimed_at === null ? "pending" : "claimed",
    tier: row.tier,
    scopes: scopesOf(row),
    unlocksScopes: [...CLAIM_UNLOCKS],
    claimedAt: row.claimed_at === null ? null : new Date(Number(row.claimed_at)).toISOString(),
    linkExpiresAt: new Date(Number(link.expires_at)).toISOString(),
  };
}
