import { z } from "zod";
import { actorOf } from "../../domain/identity/actor";
import { defineOperation } from "../../registry/types";
import { checkExpected, distributionOf, distributionResponse, expectedFields, profileOf, RELEASE_WRITE } from "./common";

/** POST /participation-release/claim/finalize: the transaction that presented a claim's voucher, checked on chain. */
export const finalizeParticipationClaim = defineOperation({
  id: "finalizeParticipationClaim",
  method: "POST",
  path: "/participation-release/claim/finalize",
  summary: "Report the transaction that presented a claim's voucher; the answer is the claim as the chain has it",
  description:
    "`paid` once the payment has PARTICIPATION_CONFIRMATIONS confirmations; `projection_pending` (reason FINALITY_PENDING) before; `submitted` while the chain has no receipt; `failed` when it reverted (the voucher may be sent again until it expires). A transaction that succeeded without paying this claim is refused with PARTICIPATION_DISTRIBUTION_EVENT_MISMATCH and changes nothing. See docs/participation-release.md.",
  ...RELEASE_WRITE,
  errors: [
    "STALE_UPDATE",
    "DISTRIBUTION_NOT_FOUND",
    "PARTICIPATION_RELEASE_NOT_DEPLOYED",
    "PARTICIPATION_ROUTE_DEGRADED",
    "PARTICIPATION_DISTRIBUTION_EVENT_MISMATCH",
    "PARTICIPATION_DISTRIBUTION_VOUCHER_EXPIRED",
  ],
  request: {
    body: z.strictObject({
      ...expectedFields,
      intentId: z.string().min(1).max(128),
      transactionHash: z.string().regex(/^0x[0-9a-f]{64}$/, "must be 0x + 64 lowercase hex digits"),
    }),
  },
  response: distributionResponse,
  mcpTool: "svc_finalize_participation_claim",
  async handler(ctx, { body }, call) {
    const release = call.services.participation;
    const deployment = await release.deploymentStatus();
    checkExpected(deployment, body);
    const actor = await actorOf(ctx, call.principal);
    const intent = await release.finalize(actor, deployment, body.intentId, body.transactionHash as `0x${string}`);
    const profile = profileOf(deployment);
    return {
      profileId: profile.profileId,
      releaseId: profile.releaseId,
      distribution: distributionOf(intent, await release.recipientRelation(actor, intent)),
      updatedAt: new Date(ctx.clock.now()).toISOString(),
    };
  },
});
