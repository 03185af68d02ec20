import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { settlementsOf } from "../../domain/lifecycle/claims";
import { claimSettlementSchema } from "../../domain/lifecycle/claim-views";
import { projectionFreshnessSchema } from "../../domain/onchain/freshness";
import { CLAIM_WRITE, claimantOf, claimMarketsBody, projectionOf, walletOf } from "./common";

/**
 * POST /claims/batch: claim the named markets. Committed markets settle automatically at final resolution, so no
 * transaction is submitted: SKIPPED/COMMITTED_SETTLED once the payout's batch is confirmed on chain (a corroborated
 * receipt), else SKIPPED/NOT_CLAIMABLE_YET with a placeholder amount. On-chain markets answer the holder's prepared
 * redeemAll transaction.
 */
export const claimBatch = defineOperation({
  id: "claimBatch",
  method: "POST",
  path: "/claims/batch",
  summary: "Claim payouts of 1..100 markets (committed: settled automatically; on-chain: the prepared redeem)",
  description: 'Claim-level outcomes are skippedReason values in the 200 body, never errors. See docs/resolution.md "Claims".',
  ...CLAIM_WRITE,
  request: { body: claimMarketsBody },
  response: z.object({
    requested: z.number().int(),
    wallet: z.string(),
    claimable: z.number().int().describe("markets with an eligible claim left for the wallet"),
    claims: z.array(claimSettlementSchema),
    projection: projectionFreshnessSchema,
  }),
  mcpTool: "svc_claim_batch",
  async handler(_ctx, { body }, call) {
    const who = await claimantOf(call.services, call.principal);
    const [claims, projection] = await Promise.all([settlementsOf(call.services.resolution.claims, who, body.markets), projectionOf(call.services)]);
    return { requested: body.markets.length, wallet: walletOf(who), claimable: claims.filter((c) => c.prepared !== undefined).length, claims, projection };
  },
});
