import { z } from "zod";
import { actorOf } from "../../domain/identity/actor";
import { DELIVERY_MODES, DISTRIBUTION_STATUSES } from "../../domain/release/program";
import { defineOperation } from "../../registry/types";
import { checkExpected, expectedFields, iso, profileOf, RELEASE_WRITE, transactionOf, transactionSchema } from "./common";

/** POST /participation-release/claim/prepare: a voucher for what the identity banked, and the transaction that presents it. */
export const prepareParticipationClaim = defineOperation({
  id: "prepareParticipationClaim",
  method: "POST",
  path: "/participation-release/claim/prepare",
  summary: "Prepare a claim of the PM the identity banked: a signed voucher and the transaction to send",
  description:
    "With deliveryMode self_claim, send `transaction` from any wallet (the PM only reaches the caller's wallet) before `intent.expiresAt`, then report its hash with POST /participation-release/claim/finalize. With protocol_push (the caller's wallet holds no gas) the service sends it: `transaction` is null and the claim is `submitted`; read it with GET /participation-release/distributions/{intentId}. One open claim per identity; one paid claim per identity per 24 hours. See docs/participation-release.md.",
  ...RELEASE_WRITE,
  errors: [
    "STALE_UPDATE",
    "PARTICIPATION_RELEASE_NOT_DEPLOYED",
    "PARTICIPATION_DISTRIBUTION_PAUSED",
    "PARTICIPATION_ROUTE_DEGRADED",
    "PARTICIPATION_ROUTE_QUARANTINED",
    "PARTICIPATION_INVENTORY_LOW",
    "AGENT_OPERATING_WALLET_NOT_LINKED",
    "CURRENT_IDENTITY_MEMBERSHIP_REQUIRED",
    "ACTIVE_VERIFIED_IDENTITY_REQUIRED",
    "NO_PARTICIPATION_RELEASE_CREDITS",
    "NEW_PARTICIPATION_RELEASE_UNITS_EXHAUSTED",
    "PARTICIPATION_CLAIM_CADENCE_ACTIVE",
    "PARTICIPATION_DISTRIBUTION_ZERO_DELTA",
    "PARTICIPATION_DISTRIBUTION_ALREADY_PREPARED",
    "PARTICIPATION_DISTRIBUTION_RECIPIENT_STALE",
  ],
  request: { body: z.strictObject(expectedFields) },
  response: z.object({
    profileId: z.string().min(1).max(128),
    releaseId: z.string().regex(/^0x[0-9a-f]{64}$/),
    intent: z.object({
      id: z.string().min(1).max(128),
      status: z.enum(DISTRIBUTION_STATUSES),
      expiresAt: z.string(),
      deliveryMode: z.enum(DELIVERY_MODES),
      amountWei: z.string().regex(/^\d+$/).describe("what the claim pays: banked minus what the identity was paid on chain"),
      recipient: z.string().regex(/^0x[0-9a-f]{40}$/),
    }),
    transaction: transactionSchema.nullable(),
  }),
  mcpTool: "svc_prepare_participation_claim",
  async handler(ctx, { body }, call) {
    const release = call.services.participation;
    const deployment = await release.deploymentStatus();
    checkExpected(deployment, body);
    const { intent, transaction } = await release.prepare(await actorOf(ctx, call.principal), deployment);
    const profile = profileOf(deployment);
    return {
      profileId: profile.profileId,
      releaseId: profile.releaseId as string,
      intent: {
        id: intent.id,
        status: intent.status,
        expiresAt: iso(intent.expiresAt) as string,
        deliveryMode: intent.deliveryMode,
        amountWei: intent.amount.toString(),
        recipient: intent.recipient,
      },
      transaction: transaction && transactionOf(transaction),
    };
  },
});
