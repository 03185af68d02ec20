import { z } from "zod";
import { actorOf } from "../../domain/identity/actor";
import { ACTIVE_WINDOW_MS, CLAIM_CADENCE_MS, LANE_STATES, MEMBER_ROLES, MEMBER_STATUSES, UNIT_WEI, VOUCHER_TTL_MS } from "../../domain/release/program";
import { defineOperation } from "../../registry/types";
import {
  address,
  deploymentOf,
  deploymentSchema,
  distributionOf,
  distributionSchema,
  iso,
  NO_DISTRIBUTION,
  profileOf,
  profileSchema,
  reasonCode,
  RELEASE_READ,
} from "./common";

const wei = z.string().regex(/^\d+$/);
const instant = z.string().nullable();

/** GET /participation-release: the calling agent's lane in PM's participation release, and where its claim stands. */
export const getParticipationRelease = defineOperation({
  id: "getParticipationRelease",
  method: "GET",
  path: "/participation-release",
  summary: "PM's participation release for this agent: deployment, membership, lane, amounts and the latest claim",
  description:
    "A verified identity banks one unit of PM for each finished UTC day on which one of its members traded; `claim` says whether POST /participation-release/claim/prepare would be accepted now, and why not. See docs/participation-release.md.",
  ...RELEASE_READ,
  request: {},
  response: z.object({
    profile: profileSchema,
    deployment: deploymentSchema,
    member: z.object({
      status: z.enum(MEMBER_STATUSES),
      role: z.enum(MEMBER_ROLES).nullable(),
      walletAddress: address.nullable(),
      identityId: z.uuid().nullable(),
    }),
    lane: z.object({
      state: z.enum(LANE_STATES),
      firstActivatedAt: instant.describe("when the identity banked its first unit"),
      activeUntil: instant.describe("the lane turns dormant at this instant without another qualifying trade"),
      lastQualifyingTradeAt: instant,
      nextCreditAt: instant.describe("when today's unit is banked (the end of the UTC day), if a member traded today"),
    }),
    amounts: z.object({
      bankedWei: wei.describe("banked and not yet paid"),
      confirmedPaidWei: wei.describe("paid on chain, final"),
      nextEstimatedWei: wei,
      communityRemainingWei: wei.describe("what the community pool can still bank, for every identity"),
      newUnitsExhausted: z.boolean(),
    }),
    distribution: distributionSchema,
    claim: z.object({
      ready: z.boolean(),
      reasonCode: reasonCode.nullable().describe("why a claim would be refused now"),
      notBefore: instant.describe("when the reason lapses by itself (cadence, an open claim's expiry)"),
    }),
    program: z.object({
      unitWei: wei,
      dayBoundary: z.literal("UTC"),
      activeWindowHours: z.number().int(),
      claimCadenceHours: z.number().int(),
      voucherTtlSeconds: z.number().int(),
      confirmations: z.number().int(),
    }),
    updatedAt: z.string(),
  }),
  mcpTool: "svc_get_participation_release",
  async handler(ctx, _input, call) {
    const actor = await actorOf(ctx, call.principal);
    const release = call.services.participation;
    const s = await release.state(actor);
    const m = s.standing.membership;
    return {
      profile: profileOf(s.deployment),
      deployment: deploymentOf(s.deployment),
      member: { status: s.standing.status, role: m?.role ?? null, walletAddress: actor.walletAddress, identityId: m?.identityId ?? null },
      lane: {
        state: s.lane.state,
        firstActivatedAt: iso(s.lane.firstActivatedAt),
        activeUntil: iso(s.lane.activeUntil),
        lastQualifyingTradeAt: iso(s.lane.lastQualifyingTradeAt),
        nextCreditAt: iso(s.lane.nextCreditAt),
      },
      amounts: {
        bankedWei: s.amounts.bankedWei.toString(),
        confirmedPaidWei: s.amounts.confirmedPaidWei.toString(),
        nextEstimatedWei: s.amounts.nextEstimatedWei.toString(),
        communityRemainingWei: s.amounts.communityRemainingWei.toString(),
        newUnitsExhausted: s.amounts.newUnitsExhausted,
      },
      distribution: s.distribution ? distributionOf(s.distribution, await release.recipientRelation(actor, s.distribution)) : NO_DISTRIBUTION,
      claim: { ready: s.claim.ready, reasonCode: s.claim.reasonCode, notBefore: iso(s.claim.notBefore) },
      program: {
        unitWei: UNIT_WEI.toString(),
        dayBoundary: "UTC" as const,
        activeWindowHours: ACTIVE_WINDOW_MS / 3_600_000,
        claimCadenceHours: CLAIM_CADENCE_MS / 3_600_000,
        voucherTtlSeconds: VOUCHER_TTL_MS / 1000,
        confirmations: ctx.config.PARTICIPATION_CONFIRMATIONS,
      },
      updatedAt: new Date(ctx.clock.now()).toISOString(),
    };
  },
});
