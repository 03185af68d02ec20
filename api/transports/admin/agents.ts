/**
 * Agents made by the operator (what `npm run admin -- agent …` calls while the service runs):
 *   POST   /admin/v1/agents                      {name, tier?}  -> 201 the agent, its wallet key and API key (shown once)
 *   PUT    /admin/v1/agents/:agentId/research     grant the research-producer right (docs/content.md)
 *   DELETE /admin/v1/agents/:agentId/research     take it back
 *   PUT    /admin/v1/agents/:agentId/rate-throttle {percent, reason, minutes?}  incident throttle: every rate ceiling
 *          of the agent's keys at percent% until lifted (or for `minutes`); GET /me shows rateLimits.overridden
 *   DELETE /admin/v1/agents/:agentId/rate-throttle  lift it
 */
import { z } from "zod";
import { createLocalAgent } from "../../domain/auth/local-agents";
import { AGENT_TIERS } from "../../domain/auth/scopes";
import { setResearchProducer } from "../../domain/content/store";
import { setRateThrottle } from "../../domain/auth/rate-throttle";
import { ApiError } from "../../platform/errors/api-error";
import { adminBody, adminJson, defineAdminRoutes } from "./define";

const throttleBody = z.strictObject({
  percent: z.number().int().min(1).max(100),
  reason: z.string().min(1).max(200),
  minutes: z
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 60)
    .optional(),
});
const createBody = z.strictObject({ name: z.string().min(1).max(64), tier: z.enum(AGENT_TIERS).default("execute") });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function agentIdParam(raw: string): string {
  if (!UUID.test(raw))
    throw new ApiError("INVALID_PAYLOAD", `agentId must be a UUID (the id GET /me shows); got ${JSON.stringify(raw)}`, {
      field: "agentId",
      location: "params",
    });
  return raw;
}

export const agentRoutes = defineAdminRoutes({
  name: "agents",
  mount(r, { ctx }) {
    r.post("/agents", async (c) => {
      const body = await adminBody(c, createBody);
      const agent = await createLocalAgent(ctx.db, ctx.clock, { name: body.name, tier: body.tier });
      return adminJson(c, agent, 201);
    });
    for (const [method, granted] of [
      ["put", true],
      ["delete", false],
    ] as const) {
      r[method]("/agents/:agentId/research", async (c) => {
        const agentId = agentIdParam(c.req.param("agentId"));
        if (!(await setResearchProducer(ctx.db, agentId, granted))) throw new ApiError("AGENT_NOT_FOUND", `no agent ${agentId}`);
        return adminJson(c, { agentId, researchProducer: granted });
      });
    }
    r.put("/agents/:agentId/rate-throttle", async (c) => {
      const agentId = agentIdParam(c.req.param("agentId"));
      const body = await adminBody(c, throttleBody);
      const until = body.minutes === undefined ? null : ctx.clock.now() + body.minutes * 60_000;
      const rateThrottle = { percent: body.percent, reason: body.reason, until };
      if (!(await setRateThrottle(ctx.db, agentId, rateThrottle))) throw new ApiError("AGENT_NOT_FOUND", `no agent ${agentId}`);
      return adminJson(c, { agentId, rateThrottle: { ...rateThrottle, until: until === null ? null : new Date(until).toISOString() } });
    });
    r.delete("/agents/:agentId/rate-throttle", async (c) => {
      const agentId = agentIdParam(c.req.param("agentId"));
      if (!(await setRateThrottle(ctx.db, agentId, null))) throw new ApiError("AGENT_NOT_FOUND", `no agent ${agentId}`);
      return adminJson(c, { agentId, rateThrottle: null });
    });
  },
});
