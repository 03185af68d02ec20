import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { buildRules } from "../../domain/protocol/rules";
import { currentDeployment, rulesInput } from "../../domain/markets/venue-documents";
import { PUBLIC_READ } from "./common";

/** GET /discover/rules: the protocol rules (resolution windows, bonds, fund flows, actor model). */
export const getRules = defineOperation({
  id: "getRules",
  method: "GET",
  path: "/discover/rules",
  summary: "Protocol rules",
  ...PUBLIC_READ,
  request: { query: z.strictObject({}) },
  response: z.looseObject({
    rulesVersion: z.string(),
    resolution: z.looseObject({}),
    bonds: z.looseObject({}),
    fundFlows: z.looseObject({}),
    actorModel: z.looseObject({}),
    deadlineFields: z.array(z.string()),
    references: z.record(z.string(), z.string()),
  }),
  mcpTool: "svc_get_rules",
  async handler(ctx) {
    return buildRules(rulesInput(currentDeployment(ctx.config)));
  },
});
