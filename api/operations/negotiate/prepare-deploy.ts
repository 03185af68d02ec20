import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { CREATOR_WRITE } from "./common";
import { prepareDeploy } from "../../domain/creation/deploy";
import { preparedDeploySchema } from "../../domain/creation/schemas";

/**
 * POST /negotiate/{id}/prepare-deploy: reserves the market's engine id and answers what commit-deploy will lock
 * (committed lane: seed + bond, the future address and id) or the transactions to sign (on-chain lane: approve, then
 * the factory's createMarket carrying the terms hash), each `{chainId, to, data, value}`.
 */
export const negotiatePrepareDeploy = defineOperation({
  id: "negotiatePrepareDeploy",
  method: "POST",
  path: "/negotiate/{id}/prepare-deploy",
  summary: "Prepare the deployment of accepted market terms",
  ...CREATOR_WRITE,
  errors: ["NEGOTIATION_NOT_FOUND", "NEGOTIATION_STATE", "NEGOTIATION_EXPIRED", "SERVICE_UNAVAILABLE"],
  request: { params: z.strictObject({ id: z.string().min(1).max(64) }), body: z.strictObject({}).optional() },
  response: preparedDeploySchema,
  mcpTool: "svc_negotiate_prepare_deploy",
  async handler(_ctx, { params }, call) {
    return prepareDeploy(call.services.creation, call.principal, params.id, call.unit);
  },
});
