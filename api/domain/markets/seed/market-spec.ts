/**
 * What a market is before the exchange knows it: the neutral description that the demo seed and the Polymarket-style
 * import both produce, and that `seedMarkets` turns into exchange commands.
 */
import { z } from "zod";

export const MARKET_CATEGORIES = [
  "CRYPTO",
  "SPORTS",
  "POLITICS",
  "ELECTIONS",
  "FINANCE",
  "TECH",
  "WORLD",
  "ECONOMY",
  "CULTURE",
  "WEATHER",
  "SCIENCE_HEALTH",
  "AI",
  "GAMING",
  "BUSINESS",
  "FASHION",
  "MOVIES_TV",
  "MUSIC",
  "SHOPPING",
  "BEAUTY",
  "TRAVEL",
  "CLIMATE",
  "DAILY_LIFE",
  "LOCAL",
  "SOCIAL",
  "FUN",
  "OTHER",
] as const;

const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x + 64 hex digits");

export const marketSpecSchema = z.object({
  /** Stable id of the market in its source; makes a re-run of the seed or import a no-op. */
  externalId: z.string().min(1).max(200),
  title: z.string().min(5).max(300),
  description: z.string().max(5000).default(""),
  category: z.enum(MARKET_CATEGORIES).default("OTHER"),
  pricingModel: z.enum(["automated", "ORDERBOOK"]),
  outcomes: z.array(z.string().min(1).max(64)).min(2).max(3),
  /** Epoch ms. */
  closeTime: z.number().int().positive(),
  /** LMSR markets: PM seed in smallest units; sets b so that the maximum loss equals the seed. */
  seed: z.bigint().positive().optional(),
  takerFeeBps: z.number().int().min(0).max(1000).default(100),
  feePolicyVersion: z.enum(["notional-v1", "shares-v2"]).default("notional-v1"),
  resolutionSource: z.union([
    z.object({ type: z.literal("polymarket"), conditionId: bytes32 }),
    z.object({ type: z.literal("creator"), note: z.string().max(500) }),
  ]),
  sourceConditionId: bytes32.optional(),
  /** ERC-1155 token ids of the source's outcomes, in outcome order (decimal strings, up to 78 digits). */
  sourceTokenIds: z.array(z.string().regex(/^\d{1,78}$/)).optional(),
  /** Election markets: region, place (XX, US-XX or CA-XX) and office, for the election filters of /discover/markets. */
  election: z
    .object({
      region: z.enum(["US", "CA", "WORLD"]),
      place: z
        .string()
        .regex(/^([A-Z]{2}|(US|CA)-[A-Z]{2})$/)
        .optional(),
      office: z.enum(["senate", "house", "governor", "legislature", "provincial_legislature", "mayor", "president", "referendum", "council"]).optional(),
    })
    .optional(),
});

export type MarketSpec = z.infer<typeof marketSpecSchema>;
