/**
 * What a creator asks for (the body of POST /negotiate/preflight and /negotiate/propose). The schema checks only the
 * shape (types, lengths); every rule about the values (bounds, gates, catalogs) is a preflight check, so one call
 * answers all of them at once (./preflight.ts).
 */
import { z } from "zod";

const wei = z.string().regex(/^\d{1,78}$/, "must be a base-10 integer string (smallest units)");

export const creationRequestSchema = z.strictObject({
  externalId: z.string().min(1).max(200).describe("your id for this market, unique among your markets"),
  title: z.string().max(1000).describe("the question; normalised in the terms (trimmed, single spaces), 10..200 characters"),
  description: z.string().max(20_000).default("").describe("resolution details, up to 5,000 characters"),
  category: z.string().max(64).default("OTHER").describe("a MarketCategory (open enum); retired names map to their successor"),
  outcomes: z.array(z.string().max(200)).min(1).max(10).default(["Yes", "No"]).describe("outcome labels, index = outcome"),
  pricingModel: z.enum(["automated", "ORDERBOOK"]),
  collateral: z.string().min(1).max(64).default("PM").describe("symbol or token address from GET /markets/config; PM is the committed lane"),
  closeTime: z
    .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
    .describe("when trading stops: RFC 3339 with offset, or epoch milliseconds"),
  seed: wei.optional().describe("LMSR markets: the pool's seed in the collateral's smallest units (sets b; the creator's maximum loss)"),
  // Flat on purpose: every envelope is one level of scalars, so a deep or huge value is refused by the schema itself
  // (the preflight check then names the kinds GET /discover/resolution-sources serves).
  resolutionSource: z
    .record(z.string().max(64), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
    .describe("an envelope of GET /discover/resolution-sources: {type, ...its fields}"),
});
export type CreationRequest = z.infer<typeof creationRequestSchema>;

/** closeTime as epoch ms. */
export function closeTimeMs(r: Pick<CreationRequest, "closeTime">): number {
  return typeof r.closeTime === "number" ? r.closeTime : Date.parse(r.closeTime);
}
