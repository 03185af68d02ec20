import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { settlementsOf } from "../../domain/lifecycle/claims";
import { projectionFreshnessSchema } from "../../domain/onchain/freshness";
import { CLAIM_READ, claimantOf, claimMarketsBody, projectionOf, walletOf } from "./common";

/** POST /claims/simulate: what /claims/batch would answer for these markets; submits nothing (REST-only). */
export const simulateClaims = defineOperation({
  id: "simulateClaims",
  method: "POST",
  path: "/claims/simulate",
  summary: "Preview claims of 1..100 markets; submits nothing",
  ...CLAIM_READ,
  request: { body: claimMarketsBody },
  response: z.object({
    requested: z.number().int(),
    wallet: z.string(),
    claimable: z.number().int(),
    totalAmountWei: z.string(),
    totalEligibleAmountWei: z.string(),
    items: z.array(
      z.object({
        chainId: z.number().int(),
        marketAddress: z.string(),
        amount: z.string(),
        status: z.enum(["claimable", "claimed"]).describe("claimed: credited (committed) already; claimable with eligibleNow false: nothing to claim yet"),
        eligibleNow: z.boolean(),
        eligibleAt: z.string().nullable(),
        amountSource: z.enum(["chain", "ledger"]),
        winningShares: z.string(),
        isResolved: z.boolean(),
        claimed: z.boolean(),
        chainReadAt: z.string().nullable(),
      }),
    ),
    projection: projectionFreshnessSchema,
  }),
  mcpTool: null,
  async handler(_ctx, { body }, call) {
    const who = await claimantOf(call.services, call.principal);
    const [claims, projection] = await Promise.all([settlementsOf(call.services.resolution.claims, who, body.markets), projectionOf(call.services)]);
    const items = claims.map((c) => ({
      chainId: c.chainId,
      marketAddress: c.marketAddress,
      amount: c.amount,
      status: c.claimed ? ("claimed" as const) : ("claimable" as const),
      eligibleNow: c.eligibleNow,
      eligibleAt: c.eligibleAt,
      amountSource: c.amountSource,
      winningShares: c.winningShares,
      isResolved: c.isResolved,
      claimed: c.claimed,
      chainReadAt: c.chainReadAt,
    }));
    const sum = (xs: typeof items) => xs.reduce((s, i) => s + BigInt(i.amount), 0n).toString();
    const claimable = items.filter((i) => i.status === "claimable" && i.amount !== "0");
    return {
      requested: body.markets.length,
      wallet: walletOf(who),
      claimable: claimable.length,
      totalAmountWei: sum(claimable),
      totalEligibleAmountWei: sum(claimable.filter((i) => i.eligibleNow)),
      items,
      projection,
    };
  },
});
