/**
 * The operator's creator gates (docs/market-creation.md "Operator actions"; `npm run admin -- creator …`):
 *   GET    /admin/v1/creators/:agentId             the agent's creator standing (tier, gates, capacity, slot)
 *   PUT    /admin/v1/creators/:agentId/tier        {tier: CreatorTier | null}  grant a tier, or null: back to the rule
 *   PUT    /admin/v1/creators/:agentId/slot        give a public cohort slot
 *   DELETE /admin/v1/creators/:agentId/slot        revoke it
 *   PUT    /admin/v1/creators/cohort               {limit}  the public cohort's capacity (0 closes it to newcomers)
 */
import { z } from "zod";
import { ApiError } from "../../platform/errors/api-error";
import type { ServiceContext } from "../../context";
import { creatorStanding } from "../../domain/creation/creator-standing";
import { grantCreatorSlot, revokeCreatorSlot, setCohortLimit, setCreatorTier } from "../../domain/creation/creator-admin";
import { CREATOR_TIERS } from "../../domain/creation/reputation-rules";
import { adminBody, adminJson, defineAdminRoutes } from "./define";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ledger account of an agent (creators are keyed by it). */
async function accountOf(ctx: ServiceContext, raw: string): Promise<string> {
  if (!UUID.test(raw))
    throw new ApiError("INVALID_PAYLOAD", `agentId must be a UUID (the id GET /me shows); got ${JSON.stringify(raw)}`, {
      field: "agentId",
      location: "params",
    });
  const [row] = await ctx.db.query<{ ledger_account: string }>(`SELECT ledger_account FROM api_agents WHERE id = $1`, [raw]);
  if (!row) throw new ApiError("AGENT_NOT_FOUND", `no agent ${raw}`);
  return row.ledger_account.toLowerCase();
}

export const creatorRoutes = defineAdminRoutes({
  name: "creators",
  mount(r, { ctx, services }) {
    r.put("/creators/cohort", async (c) => {
      const { limit } = await adminBody(c, z.strictObject({ limit: z.number().int().min(0).max(1_000_000) }));
      return adminJson(c, await setCohortLimit(ctx.db, limit, ctx.clock.now()));
    });
    r.get("/creators/:agentId", async (c) => {
      const account = await accountOf(ctx, c.req.param("agentId"));
      return adminJson(c, { account, ...(await creatorStanding(ctx.db, account, ctx.clock.now(), services.creation.outcomeOf)) });
    });
    r.put("/creators/:agentId/tier", async (c) => {
      const account = await accountOf(ctx, c.req.param("agentId"));
      const { tier } = await adminBody(c, z.strictObject({ tier: z.enum(CREATOR_TIERS).nullable() }));
      return adminJson(c, await setCreatorTier(ctx.db, account, tier, ctx.clock.now()));
    });
    r.put("/creators/:agentId/slot", async (c) => adminJson(c, await grantCreatorSlot(ctx.db, await accountOf(ctx, c.req.param("agentId")), ctx.clock.now())));
    r.delete("/creators/:agentId/slot", async (c) =>
      adminJson(c, await revokeCreatorSlot(ctx.db, await accountOf(ctx, c.req.param("agentId")), ctx.clock.now())),
    );
  },
});
