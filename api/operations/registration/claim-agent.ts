import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { agentById, claimedAgentsOfOwner, scopesOf, setGrants } from "../../domain/auth/agents";
import { linkOf, liveLink, useLink, type LinkRow } from "../../domain/auth/claim-links";
import type { SqlRunner } from "../../../relayer/db/client";
import { MAX_AGENTS_PER_OWNER } from "./register";
import { CLAIM_UNLOCKS, unionScopes } from "../../domain/auth/scopes";
import { linkToken } from "./schemas";
import { agentClaimSchema, claimView, requireClaimOpen } from "./claim-view";

/** The live link of a token, or 403 FORBIDDEN with the reason (POST /agents/claim answers only its spec row's codes). */
async function claimLink(db: SqlRunner, token: string, now: number): Promise<LinkRow> {
  try {
    return await liveLink(db, token, "claim", now);
  } catch (err) {
    if (err instanceof ApiError && err.code === "EXPIRED_TOKEN") throw new ApiError("FORBIDDEN", err.detail, err.extensions);
    throw err;
  }
}

/** The claim this link already made, if it made one (the idempotent answer), else undefined. */
async function claimMadeBy(db: SqlRunner, token: string) {
  const used = await linkOf(db, token, "claim");
  if (used && used.used_at !== null && (await agentById(db, used.agent_id))?.claimed_at != null) return claimView(db, used);
  return undefined;
}

/** POST /agents/claim: the owner claims the agent; its key gains CLAIM_UNLOCKS and tier execute. */
export const claimAgent = defineOperation({
  id: "claimAgent",
  method: "POST",
  path: "/agents/claim",
  summary: "Claim an agent with the owner's link token (unlocks trading)",
  description:
    "The link token authenticates. Idempotent (spec), with no Idempotency-Key needed: posting the link that claimed the agent again answers the same claim. An unknown, used or expired link answers 403 FORBIDDEN (reason UNKNOWN, USED, EXPIRED); an owner email that has already claimed 3 agents, 403 FORBIDDEN reason OWNER_AGENT_LIMIT.",
  category: "registration",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "write",
  charged: true,
  // The link makes the call idempotent (spec "POST /agents/claim: none; idempotent"): no Idempotency-Key required.
  idempotency: "exempt",
  request: { body: z.strictObject({ token: linkToken }) },
  response: agentClaimSchema,
  errors: ["FORBIDDEN", "FEATURE_DISABLED"],
  mcpTool: "svc_claim_agent",
  async handler(ctx, { body }) {
    requireClaimOpen(ctx);
    const now = ctx.clock.now();
    return ctx.db.transaction(async (tx) => {
      const made = await claimMadeBy(tx, body.token);
      if (made) return made;
      const link = await claimLink(tx, body.token, now);
      const row = await agentById(tx, link.agent_id);
      if (row?.registration_path !== "claim" || !row.owner_email)
        throw new ApiError("FORBIDDEN", "this link does not name a claimable agent", { reason: "NOT_A_CLAIMED_AGENT" });
      // The owner limit is checked here, where the owner acts (docs/auth.md): only claimed agents count.
      if (row.claimed_at === null && (await claimedAgentsOfOwner(tx, row.owner_email)) >= MAX_AGENTS_PER_OWNER) {
        throw new ApiError("FORBIDDEN", `${row.owner_email} has already claimed ${MAX_AGENTS_PER_OWNER} agents`, {
          reason: "OWNER_AGENT_LIMIT",
          limit: MAX_AGENTS_PER_OWNER,
        });
      }
      if (!(await useLink(tx, link.token_hash, now))) {
        // A concurrent call with the same link won: answer its claim (idempotent).
        const again = await claimMadeBy(tx, body.token);
        if (again) return again;
        throw new ApiError("FORBIDDEN", "this claim link was already used", { reason: "USED" });
      }
      if (row.claimed_at === null) {
        await setGrants(tx, row.id, { tier: "execute", scopes: unionScopes(scopesOf(row), CLAIM_UNLOCKS) });
        // Claimed, the agent no longer expires with its link.
        await tx.query(`UPDATE api_agents SET claimed_at = $2, expires_at = NULL WHERE id = $1`, [row.id, now]);
      }
      return claimView(tx, link);
    });
  },
});
