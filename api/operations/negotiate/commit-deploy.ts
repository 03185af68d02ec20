import { z } from "zod";
import { defineOperation, Reply } from "../../registry/types";
import { CREATOR_WRITE } from "./common";
import { commitDeploy } from "../../domain/creation/deploy";
import { deployedSchema } from "../../domain/creation/schemas";

/**
 * POST /negotiate/{id}/commit-deploy: creates the market. Committed lane: the engine's journaled createMarket locks
 * the bond and pays the seed from the creator's PM. On-chain lane: `txHash` of the factory transaction; its receipt's
 * MarketCreated must match the accepted terms (terms hash included), then the bond is locked on the ledger. Either
 * way the market is listed in discovery at once and announced. Repeating it answers the same market.
 */
export const negotiateCommitDeploy = defineOperation({
  id: "negotiateCommitDeploy",
  method: "POST",
  path: "/negotiate/{id}/commit-deploy",
  summary: "Create the market of accepted terms",
  ...CREATOR_WRITE,
  errors: ["NEGOTIATION_NOT_FOUND", "NEGOTIATION_STATE", "NEGOTIATION_EXPIRED", "DEPLOY_RECEIPT_MISMATCH", "INSUFFICIENT_BALANCE", "SERVICE_UNAVAILABLE"],
  request: {
    params: z.strictObject({ id: z.string().min(1).max(64) }),
    body: z
      .strictObject({
        txHash: z
          .string()
          .regex(/^0x[0-9a-fA-F]{64}$/)
          .optional()
          .describe("on-chain lane: the factory createMarket transaction"),
      })
      .optional(),
  },
  status: 201,
  response: deployedSchema,
  mcpTool: "svc_negotiate_commit_deploy",
  async handler(_ctx, { params, body }, call) {
    return new Reply(201, (await commitDeploy(call.services.creation, call.principal, params.id, body ?? {}, call.unit)) as z.input<typeof deployedSchema>);
  },
});
