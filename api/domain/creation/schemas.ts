/** Response schemas of the negotiate operations and the creation reads (api/operations/negotiate, discover). */
import { z } from "zod";

export const checkFailureSchema = z.object({ code: z.string(), field: z.string(), message: z.string(), reason: z.string().optional() });

const slotsSchema = z.object({
  limit: z.number().int(),
  occupied: z.number().int(),
  available: z.number().int(),
  unlimited: z.literal(false),
  holdsSlot: z.boolean(),
});

/** What a creator tier allows (reputation-rules.ts TIER_GATES). */
export const tierGatesSchema = z.object({
  canCreate: z.boolean(),
  canVote: z.boolean(),
  canChallenge: z.boolean(),
  concurrentMarketLimit: z.number().int(),
  maxSeedMultiplier: z.number().nullable(),
});

export const reputationSchema = z.object({
  creatorTier: z.string(),
  jurorTier: z.string(),
  tierGates: tierGatesSchema,
  creation: z.object({
    effectiveConcurrentLimit: z.number().int(),
    activeMarkets: z.number().int(),
    remaining: z.number().int(),
    slots: slotsSchema.nullable(),
  }),
});

export const preflightAnswerSchema = z.object({
  ok: z.boolean().describe("true when propose would succeed now"),
  lane: z.enum(["committed", "onchain"]).nullable().describe("the settlement lane the collateral selects"),
  failures: z.array(checkFailureSchema).describe("every failed check, each with its code and field"),
  reputation: reputationSchema,
});

export const negotiationSchema = z.object({
  id: z.uuid(),
  status: z.enum(["proposed", "accepted", "rejected", "lapsed", "deployed"]),
  lane: z.enum(["committed", "onchain"]),
  externalId: z.string(),
  terms: z.record(z.string(), z.unknown()).describe('the server\'s terms (docs/market-creation.md "Terms")'),
  termsHash: z.string().regex(/^0x[0-9a-f]{64}$/),
  expiresAt: z.string().describe("proposed: accept by; accepted: deploy by"),
  decidedAt: z.string().nullable(),
  market: z.object({ marketId: z.string(), address: z.string().nullable(), chainId: z.number().int() }).nullable(),
  createdAt: z.string(),
});

const txSchema = z.object({
  chainId: z.number().int(),
  to: z.string(),
  data: z.string().regex(/^0x[0-9a-f]*$/),
  value: z.literal("0"),
  description: z.string(),
});

export const preparedDeploySchema = z.object({
  negotiationId: z.uuid(),
  lane: z.enum(["committed", "onchain"]),
  chainId: z.number().int(),
  marketId: z.string().describe("the engine market id this market gets (committed: its ledger market id)"),
  address: z.string().nullable().describe("committed: the market's address (its pool account); onchain: null until the factory creates it"),
  lock: z.object({ account: z.string(), pm: z.string(), bond: z.string(), seed: z.string().nullable(), collateral: z.string() }),
  transactions: z.array(txSchema).describe("onchain: sign and send in order (approve, then the factory's createMarket); committed: none"),
  deployBy: z.string(),
});

export const deployedSchema = z.object({
  negotiationId: z.uuid(),
  status: z.literal("deployed"),
  lane: z.enum(["committed", "onchain"]),
  market: z.object({
    address: z.string(),
    marketId: z.string(),
    chainId: z.number().int(),
    state: z.string(),
    pricingModel: z.enum(["automated", "ORDERBOOK"]),
    outcomes: z.array(z.string()),
    openTime: z.string(),
    closeTime: z.string(),
    creatorResolveBy: z.string(),
  }),
  locked: z.object({ account: z.string(), pm: z.string(), bond: z.string(), seed: z.string().nullable() }),
  txHash: z.string().nullable(),
  deployedAt: z.string(),
});
