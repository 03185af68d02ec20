/** What the participation-release operations share (docs/participation-release.md): access, shapes, views. */
import { z } from "zod";
import { pmProfile } from "../../domain/protocol/chains";
import type { DistributorStatus } from "../../domain/release/distributor-chain";
import type { Intent } from "../../domain/release/intents";
import {
  DEPLOYMENT_STATES,
  DELIVERY_MODES,
  DISTRIBUTION_STATUSES,
  PARTICIPATION_REASON_CODES,
  RECIPIENT_RELATIONS,
  type ParticipationReasonCode,
  type RecipientRelation,
} from "../../domain/release/program";
import { ApiError } from "../../platform/errors/api-error";
import { KEY_READ_ACCESS } from "../../registry/types";

/** Any live key of the agent itself: the release is about the account (as identity linking). */
export const RELEASE_READ = { ...KEY_READ_ACCESS, category: "participation" } as const;
export const RELEASE_WRITE = { ...RELEASE_READ, rateClass: "write", idempotency: "required" } as const;

const hex32 = z.string().regex(/^0x[0-9a-f]{64}$/);
export const address = z.string().regex(/^0x[0-9a-f]{40}$/);
const instant = z.string().nullable();
export const reasonCode = z.enum(PARTICIPATION_REASON_CODES);
export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const expectedFields = {
  expectedProfileId: z.string().min(1).max(128).describe("the `profile.profileId` the agent read from GET /participation-release"),
  expectedReleaseId: z
    .string()
    .regex(/^0x[0-9a-f]{64}$/, "must be 0x + 64 lowercase hex digits")
    .describe("the `profile.releaseId` the agent read: the claim is refused (STALE_UPDATE) when the release changed"),
};

export const profileSchema = z.object({
  profileId: z.string().min(1).max(128),
  stage: z.enum(["test", "production"]),
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int().min(0).max(30),
  releaseId: hex32.nullable().describe("null until the distributor is deployed"),
});

export function profileOf(d: DistributorStatus): z.input<typeof profileSchema> {
  return { ...pmProfile(d.chainId), releaseId: d.address ? d.releaseId : null };
}

export const deploymentSchema = z.object({
  state: z.enum(DEPLOYMENT_STATES),
  chainId: z.number().int(),
  claimEnabled: z.boolean(),
  reasonCode: reasonCode.nullable(),
  distributorAddress: address.nullable().describe("the ParticipationDistributor contract (as /discover/token-release lists it)"),
  inventoryWei: z.string().regex(/^\d+$/).nullable().describe("PM the distributor holds; null when not read"),
});

export function deploymentOf(d: DistributorStatus): z.input<typeof deploymentSchema> {
  return {
    state: d.state,
    chainId: d.chainId,
    claimEnabled: d.state === "active",
    reasonCode: d.reasonCode,
    distributorAddress: d.address?.toLowerCase() ?? null,
    inventoryWei: d.inventoryWei?.toString() ?? null,
  };
}

export const distributionSchema = z.object({
  status: z.enum(DISTRIBUTION_STATUSES),
  deliveryMode: z
    .enum(DELIVERY_MODES)
    .nullable()
    .describe("self_claim: a wallet sends the prepared transaction; protocol_push: the service sends it (the recipient has no gas)"),
  recipientRelation: z.enum(RECIPIENT_RELATIONS).nullable(),
  intentId: z.string().min(1).max(128).nullable(),
  expiresAt: instant.describe("the voucher is refused on chain after this instant"),
  transactionHash: hex32.nullable(),
  recipient: address.nullable().describe("the wallet the claim pays"),
  amountWei: z.string().regex(/^\d+$/).nullable().describe("what the claim pays (the chain's figure once paid)"),
  reasonCode: reasonCode.nullable().describe("FINALITY_PENDING while its payment waits for confirmations, VOUCHER_EXPIRED once expired unpaid"),
  updatedAt: instant,
});

export const NO_DISTRIBUTION: z.input<typeof distributionSchema> = {
  status: "none",
  deliveryMode: null,
  recipientRelation: null,
  intentId: null,
  expiresAt: null,
  transactionHash: null,
  recipient: null,
  amountWei: null,
  reasonCode: null,
  updatedAt: null,
};

export function distributionOf(i: Intent, relation: RecipientRelation): z.input<typeof distributionSchema> {
  const reason: ParticipationReasonCode | null =
    i.status === "projection_pending" || i.status === "expired_awaiting_finality"
      ? "PARTICIPATION_DISTRIBUTION_FINALITY_PENDING"
      : i.status === "unpaid"
        ? "PARTICIPATION_DISTRIBUTION_VOUCHER_EXPIRED"
        : null;
  return {
    status: i.status,
    deliveryMode: i.deliveryMode,
    recipientRelation: relation,
    intentId: i.id,
    expiresAt: iso(i.expiresAt),
    transactionHash: i.txHash,
    recipient: i.recipient,
    amountWei: i.amount.toString(),
    reasonCode: reason,
    updatedAt: iso(i.updatedAt),
  };
}

export const transactionSchema = z.object({
  chainId: z.number().int(),
  to: address,
  data: z.string().regex(/^0x[0-9a-f]{8,}$/),
  value: z.literal("0"),
});

export function transactionOf(t: { chainId: number; to: string; data: string }): z.input<typeof transactionSchema> {
  return { chainId: t.chainId, to: t.to.toLowerCase(), data: t.data, value: "0" };
}

/** STALE_UPDATE when the agent's expected profile or release is not the current one. */
export function checkExpected(d: DistributorStatus, body: { expectedProfileId: string; expectedReleaseId: string }): void {
  const profile = profileOf(d);
  if (body.expectedProfileId !== profile.profileId || body.expectedReleaseId !== profile.releaseId)
    throw new ApiError("STALE_UPDATE", "the participation release is not the one expected: read GET /participation-release again", {
      profileId: profile.profileId,
      releaseId: profile.releaseId,
    });
}

export const distributionResponse = z.object({
  profileId: z.string().min(1).max(128),
  releaseId: hex32.nullable(),
  distribution: distributionSchema,
  updatedAt: z.string(),
});
