/** zod schemas of the PM purchase operations (docs/pm-purchase.md). */
import { z } from "zod";

const baseUnits = z.string().regex(/^\d+$/).describe("integer base units (6 decimals), decimal string");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

/** A rung of the bundle ladder: the spec's `purchase.bundles` item plus the exact USDC price. */
export const bundleSchema = z.object({
  usd: z.number().positive().describe("display price in USD; usdCents is the price"),
  usdCents: z.number().int().positive(),
  pm: z.number().int().positive().describe("whole PM credited"),
  fills: z.number().int().min(0).describe("permanent fill credits included: floor(pm / pmPerFill)"),
  featured: z.literal(true).optional(),
  priceAtomic: baseUnits.describe("the USDC price in base units (the x402 `amount`)"),
});

/** AgentPmPurchaseBody. */
export const pmPurchaseBody = z
  .object({
    pm: z
      .union([z.number().int().positive().max(1e12), z.string().regex(/^[1-9]\d{0,11}$/, "must be a positive integer of whole PM")])
      .describe("Whole PM of the bundle to buy, as listed by GET /pm/bundles (e.g. 1000)"),
  })
  .strict();

/** AgentPmPurchaseResponse. */
export const pmPurchaseResponse = z.object({
  purchaseId: z.uuid(),
  status: z.literal("credited"),
  bundle: bundleSchema,
  pmCredited: baseUnits.describe("PM base units credited (reason PURCHASE)"),
  fillsCredited: z.number().int().min(0),
  pmBalance: baseUnits.describe("the agent's PM balance (total, base units) right after the credit"),
  fillsRemaining: z.number().int().min(0).describe("fill allowance remaining right after the credit"),
  payment: z.object({
    scheme: z.literal("exact"),
    network: z.string().describe("CAIP-2, e.g. eip155:8453"),
    asset: address,
    payTo: address,
    payer: address,
    amount: baseUnits,
    nonce: z.string().regex(/^0x[0-9a-f]{64}$/),
    transaction: z
      .string()
      .regex(/^0x[0-9a-f]{64}$/)
      .describe("the transferWithAuthorization settlement transaction"),
  }),
  purchasedAt: z.string().describe("ISO instant of the credit"),
});

export const pmBundlesResponse = z.object({
  pmPerFill: z.number().int().min(0),
  bundles: z.array(bundleSchema),
  payment: z
    .object({
      protocol: z.literal("x402"),
      x402Version: z.number().int(),
      scheme: z.literal("exact"),
      network: z.string(),
      asset: address,
      payTo: address,
      decimals: z.number().int(),
    })
    .nullable()
    .describe("how bundles are paid; null while no USDC is deployed on the chain"),
});
