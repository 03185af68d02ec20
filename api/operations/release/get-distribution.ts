import { z } from "zod";
import { actorOf } from "../../domain/identity/actor";
import { defineOperation } from "../../registry/types";
import { distributionOf, distributionResponse, profileOf, RELEASE_READ, transactionOf, transactionSchema } from "./common";

/** GET /participation-release/distributions/{intentId}: a claim of the caller's identity, as the chain has it now. */
export const getParticipationDistribution = defineOperation({
  id: "getParticipationDistribution",
  method: "GET",
  path: "/participation-release/distributions/{intentId}",
  summary: "A claim of the agent's identity, read from the chain now",
  description:
    "Any current member of the claim's identity may read it. `transaction` is the voucher's transaction again while it can still be sent (prepared, failed or submitted, not expired). See docs/participation-release.md.",
  ...RELEASE_READ,
  errors: ["DISTRIBUTION_NOT_FOUND", "PARTICIPATION_ROUTE_DEGRADED"],
  request: { params: z.strictObject({ intentId: z.string().min(1).max(128) }) },
  response: distributionResponse.extend({ transaction: transactionSchema.nullable() }),
  mcpTool: "svc_get_participation_distribution",
  async handler(ctx, { params }, call) {
    const release = call.services.participation;
    const actor = await actorOf(ctx, call.principal);
    const deployment = await release.deploymentStatus();
    const { intent, transaction } = await release.distribution(actor, deployment, params.intentId);
    const profile = profileOf(deployment);
    return {
      profileId: profile.profileId,
      releaseId: profile.releaseId,
      distribution: distributionOf(intent, await release.recipientRelation(actor, intent)),
      transaction: transaction && transactionOf(transaction),
      updatedAt: new Date(ctx.clock.now()).toISOString(),
    };
  },
});
