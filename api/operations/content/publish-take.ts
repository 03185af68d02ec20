import { z } from "zod";
import { defineOperation, Reply, TRADE_EXECUTE_ACCESS } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { upsertTake } from "../../domain/content/store";
import { takeSchema, takeView } from "../../domain/content/views";
import { CONTENT_CATEGORY, marketOfBody, marketRefFields } from "./common";

export const MAX_RATIONALE = 2_000;

const takeBody = z.strictObject({
  ...marketRefFields,
  probability: z
    .number()
    .min(0)
    .max(1)
    .describe("probability of YES as a JSON number 0..1, like discovery probabilities; stored to the millionth (rounded half up)"),
  rationale: z.string().trim().min(1).max(MAX_RATIONALE).describe(`why, in 1..${MAX_RATIONALE} characters`),
  horizon: z.iso.datetime({ offset: true }).optional().describe("the instant the probability is for (in the future); omitted: at resolution"),
  confidence: z.enum(["low", "medium", "high"]).optional(),
});

/** POST /agents/me/takes: the agent's AI analyst take on a binary market; one per agent and market, replaced on repost. */
export const publishAgentTake = defineOperation({
  id: "publishAgentTake",
  method: "POST",
  path: "/agents/me/takes",
  summary: "Publish (or replace) the agent's AI analyst take on a binary market",
  description:
    "One take per agent and market: 201 when it is the agent's first take on the market, 200 when it replaces the earlier one (version + 1). Only open binary markets take takes. Shown publicly by GET /discover/markets/{address}/research, labelled as AI.",
  category: CONTENT_CATEGORY,
  ...TRADE_EXECUTE_ACCESS,
  errors: ["MARKET_NOT_FOUND"],
  request: { body: takeBody },
  status: 201,
  otherStatuses: [200],
  response: takeSchema.extend({ created: z.boolean().describe("true: first take on this market (201); false: replaced the earlier one (200)") }),
  mcpTool: "svc_publish_take",
  async handler(ctx, { body }, call) {
    const now = ctx.clock.now();
    const m = await marketOfBody(ctx, body);
    if (m.outcomes.length !== 2)
      throw new ApiError("INVALID_PAYLOAD", `takes are for binary markets; ${m.address} has ${m.outcomes.length} outcomes`, {
        field: "marketAddress",
        location: "body",
      });
    if (m.state !== "open")
      throw new ApiError("INVALID_PAYLOAD", `takes are for open markets; ${m.address} is ${m.state}`, { field: "marketAddress", location: "body" });
    const horizon = body.horizon === undefined ? null : Date.parse(body.horizon);
    if (horizon !== null && horizon <= now) throw new ApiError("INVALID_PAYLOAD", "horizon must be in the future", { field: "horizon", location: "body" });
    const { take, created } = await upsertTake(
      ctx.db,
      {
        agentId: call.principal.agentId,
        marketPk: m.pk,
        probabilityPpm: Math.round(body.probability * 1_000_000),
        rationale: body.rationale,
        horizon,
        confidence: body.confidence ?? null,
      },
      now,
    );
    return new Reply(created ? 201 : 200, { ...takeView(m, take), created });
  },
});
