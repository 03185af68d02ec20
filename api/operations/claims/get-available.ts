import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { payoutPage } from "../../domain/lifecycle/claims";
import { payoutItemSchema } from "../../domain/lifecycle/claim-views";
import { projectionFreshnessSchema } from "../../domain/onchain/freshness";
import { CLAIM_READ, claimantOf, cursorField, limitField, projectionOf, walletOf } from "./common";

export const valueTotalSchema = z.object({
  chainId: z.number().int(),
  collateralToken: z.string().nullable(),
  symbol: z.string(),
  decimals: z.number().int(),
  totalWei: z.string(),
  totalFormatted: z.string(),
});

/** The page tail both payout listings answer (GET /claims/available, POST /claims/sweep). */
export const payoutPageTail = {
  totalCount: z.number().int(),
  valueTotals: z.array(valueTotalSchema),
  unattributedPayoutCount: z.number().int(),
  valueAttributionComplete: z.boolean(),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
  projection: projectionFreshnessSchema,
};

/**
 * GET /claims/available: the caller's payouts of both lanes, market id ascending. Committed payouts were credited at
 * final resolution (status claimed, amountSource ledger); on-chain ones are the contract's previewClaim (claimable).
 */
export const getClaimsAvailable = defineOperation({
  id: "getClaimsAvailable",
  method: "GET",
  path: "/claims/available",
  summary: "The caller's payouts (committed: credited at resolution; on-chain: claimable through the contract)",
  description: 'Page with nextCursor while hasMore. limit 1..200 (default 100). See docs/resolution.md "Claims".',
  ...CLAIM_READ,
  request: { query: z.strictObject({ cursor: cursorField.optional(), limit: limitField }) },
  response: z.object({
    wallet: z.string(),
    payouts: z.array(payoutItemSchema),
    totalClaimable: z.string(),
    totalEligibleNow: z.string(),
    count: z.number().int(),
    ...payoutPageTail,
  }),
  mcpTool: "svc_get_claims_available",
  async handler(_ctx, { query }, call) {
    const who = await claimantOf(call.services, call.principal);
    const [page, projection] = await Promise.all([payoutPage(call.services.resolution.claims, who, query), projectionOf(call.services)]);
    const { excludedIneligibleCount: _excluded, ...rest } = page;
    return { wallet: walletOf(who), ...rest, projection };
  },
});
