import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { payoutPage, settlementsOf } from "../../domain/lifecycle/claims";
import { claimSettlementSchema } from "../../domain/lifecycle/claim-views";
import { payoutPageTail } from "./get-available";
import { CLAIM_WRITE, claimantOf, cursorField, limitField, projectionOf, walletOf } from "./common";

/**
 * POST /claims/sweep: claim every payout of one page of /claims/available (eligible only unless includeIneligible).
 * Committed payouts were credited at resolution (COMMITTED_SETTLED once corroborated); on-chain ones answer their
 * prepared redeem.
 */
export const sweepClaims = defineOperation({
  id: "sweepClaims",
  method: "POST",
  path: "/claims/sweep",
  summary: "Claim every payout of one page (committed: settled automatically; on-chain: the prepared redeems)",
  ...CLAIM_WRITE,
  request: {
    query: z.strictObject({ cursor: cursorField.optional(), limit: limitField, includeIneligible: z.enum(["true", "false"]).default("false") }),
    body: z.strictObject({}),
  },
  response: z.object({
    wallet: z.string(),
    totalClaimable: z.string(),
    totalAmount: z.string(),
    totalEligibleAmount: z.string(),
    excludedIneligibleCount: z.number().int(),
    claims: z.array(claimSettlementSchema),
    ...payoutPageTail,
  }),
  mcpTool: "svc_sweep_claims",
  async handler(_ctx, { query }, call) {
    const who = await claimantOf(call.services, call.principal);
    const deps = call.services.resolution.claims;
    const page = await payoutPage(deps, who, { cursor: query.cursor, limit: query.limit, eligibleOnly: query.includeIneligible === "false" });
    const [claims, projection] = await Promise.all([
      settlementsOf(
        deps,
        who,
        page.payouts.map((p) => ({ chainId: p.chainId, marketAddress: p.marketAddress })),
      ),
      projectionOf(call.services),
    ]);
    const sum = (xs: { amount: string }[]) => xs.reduce((s, c) => s + BigInt(c.amount), 0n).toString();
    return {
      wallet: walletOf(who),
      totalClaimable: page.totalClaimable,
      totalAmount: sum(claims),
      totalEligibleAmount: sum(claims.filter((c) => c.eligibleNow)),
      excludedIneligibleCount: page.excludedIneligibleCount,
      claims,
      totalCount: page.totalCount,
      valueTotals: page.valueTotals,
      unattributedPayoutCount: page.unattributedPayoutCount,
      valueAttributionComplete: page.valueAttributionComplete,
      hasMore: page.hasMore,
      nextCursor: page.nextCursor,
      projection,
    };
  },
});
