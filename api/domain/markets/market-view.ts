/**
 * The JSON shapes of catalog markets (docs/discovery.md): the list row, the detail, trading rules, deadlines; with
 * their zod schemas, which the operations declare as responses (so /openapi.json shows them).
 */
import { z } from "zod";
import { MARKET_STATES } from "../protocol/market-states";
import type { CatalogMarket } from "./catalog-types";

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

const IsoTimestamp = z.string().describe("RFC 3339 UTC instant");
const WeiString = z.string().regex(/^\d+$/).describe("integer, smallest unit of the token");
const Address = z.string().regex(/^0x[0-9a-f]{40}$/);

/** The deadline that bounds the market's current stage, or null once terminal. */
export function nextActionDeadline(m: CatalogMarket): number | null {
  switch (m.state) {
    case "open":
      return m.closeTime;
    case "closed":
      return m.creatorResolveBy;
    case "creator_proposal":
      return m.challengeBy;
    case "challenge":
    case "human_voting":
      return m.humanVoteEndsAt;
    case "council_review":
      return m.councilReviewEndsAt;
    default:
      return null;
  }
}

/** Probability (0..1) from parts per million. */
const prob = (ppm: number | null) => (ppm === null ? null : ppm / 1_000_000);

export const outcomeSchema = z.object({ index: z.number().int(), label: z.string(), probability: z.number().min(0).max(1).nullable() });

export const marketRowSchema = z.object({
  address: Address,
  chainId: z.number().int().positive(),
  marketId: z.string().nullable().describe("committed lane: the ledger's market id; null for onchain markets"),
  settlement: z.enum(["committed", "onchain"]),
  pricingModel: z.enum(["automated", "ORDERBOOK"]),
  title: z.string(),
  category: z.string(),
  outcomes: z.array(outcomeSchema),
  state: z.enum(MARKET_STATES),
  closeTime: IsoTimestamp,
  nextActionDeadline: IsoTimestamp.nullable(),
  creator: Address,
  collateral: z.object({ symbol: z.string(), decimals: z.number().int(), token: z.string().nullable() }),
  volume24h: WeiString,
  volumeTotal: WeiString,
  lastTradeAt: IsoTimestamp.nullable(),
  createdAt: IsoTimestamp,
  externalId: z.string().nullable(),
  resolutionSource: z.record(z.string(), z.unknown()),
  sourceConditionId: z.string().nullable(),
  sourceTokenIds: z.array(z.string()).nullable(),
  election: z.object({ region: z.string(), place: z.string().nullable(), office: z.string().nullable() }).nullable(),
  sourceToken: z.object({ tokenId: z.string(), outcomeIndex: z.number().int(), side: z.string() }).optional(),
});

export const tradingRulesSchema = z.object({
  pricingModel: z.enum(["automated", "ORDERBOOK"]),
  settlement: z.enum(["committed", "onchain"]),
  collateral: z.object({ symbol: z.string(), decimals: z.number().int(), token: z.string().nullable() }),
  outcomeCount: z.number().int(),
  takerFeeBps: z.number().int(),
  feePolicyVersion: z.string(),
  placeFeeBps: z.literal(0),
  buyFeeBps: z.literal(0),
  sellExitFeeBps: z.number().int(),
  winningsExitFeeBps: z.number().int(),
  tickSizeBps: z.number().int(),
  minPriceBps: z.number().int(),
  maxPriceBps: z.number().int(),
  minSize: WeiString,
  lmsrSeed: WeiString.nullable(),
  closeTime: IsoTimestamp,
});

export const marketDetailSchema = marketRowSchema.extend({
  description: z.string(),
  openTime: IsoTimestamp,
  creatorResolveBy: IsoTimestamp,
  challengeBy: IsoTimestamp.nullable(),
  humanVote: z.object({ endsAt: IsoTimestamp.nullable() }),
  councilReviewEndsAt: IsoTimestamp.nullable(),
  resolvedAt: IsoTimestamp.nullable(),
  resolvedOutcome: z.number().int().nullable(),
  tradeCount: z.number().int(),
  tradingRules: tradingRulesSchema,
});

export function sideOf(m: CatalogMarket, index: number): string {
  return m.outcomes.length === 2 ? (index === 0 ? "YES" : "NO") : m.outcomes[index];
}

// Views of a market are pure functions of its record; catalog reads hand out the same record object for as long as it
// is current (catalog-cache.ts), so its views are built once, frozen and shared (the REST adapter checks a frozen
// body against the response schema once, api/transports/rest/router.ts).
const rows = new WeakMap<CatalogMarket, z.input<typeof marketRowSchema>>();
const details = new WeakMap<CatalogMarket, z.input<typeof marketDetailSchema>>();

export function marketRow(m: CatalogMarket, opts: { sourceTokenId?: string } = {}): z.input<typeof marketRowSchema> {
  if (opts.sourceTokenId !== undefined) return buildMarketRow(m, opts);
  let row = rows.get(m);
  if (!row) rows.set(m, (row = freezeView(buildMarketRow(m, opts))));
  return row;
}

/** Freezes a view and the objects it built (not the record's own objects it refers to, e.g. resolutionSource). */
function freezeView<T extends Record<string, unknown>>(v: T): T {
  for (const k of ["outcomes", "tradingRules", "humanVote", "sourceToken"]) {
    const inner = v[k];
    if (Array.isArray(inner)) inner.forEach((x) => Object.freeze(x));
    if (inner && typeof inner === "object") Object.freeze(inner);
  }
  return Object.freeze(v);
}

function buildMarketRow(m: CatalogMarket, opts: { sourceTokenId?: string }): z.input<typeof marketRowSchema> {
  const tokenIndex = opts.sourceTokenId && m.sourceTokenIds ? m.sourceTokenIds.indexOf(opts.sourceTokenId) : -1;
  return {
    address: m.address,
    chainId: m.chainId,
    marketId: m.marketId === null ? null : m.marketId.toString(),
    settlement: m.settlement,
    pricingModel: m.pricingModel,
    title: m.title,
    category: m.category,
    outcomes: m.outcomes.map((label, index) => ({ index, label, probability: prob(m.lastPricesPpm[index] ?? null) })),
    state: m.state,
    closeTime: iso(m.closeTime),
    nextActionDeadline: isoOrNull(nextActionDeadline(m)),
    creator: m.creator,
    collateral: m.collateral,
    volume24h: m.volume24h.toString(),
    volumeTotal: m.volumeTotal.toString(),
    lastTradeAt: isoOrNull(m.lastTradeAt),
    createdAt: iso(m.createdAt),
    externalId: m.externalId,
    resolutionSource: m.resolutionSource,
    sourceConditionId: m.sourceConditionId,
    sourceTokenIds: m.sourceTokenIds,
    election: m.election,
    ...(tokenIndex >= 0 ? { sourceToken: { tokenId: opts.sourceTokenId as string, outcomeIndex: tokenIndex, side: sideOf(m, tokenIndex) } } : {}),
  };
}

export function tradingRules(m: CatalogMarket): z.input<typeof tradingRulesSchema> {
  return {
    pricingModel: m.pricingModel,
    settlement: m.settlement,
    collateral: m.collateral,
    outcomeCount: m.outcomes.length,
    takerFeeBps: m.takerFeeBps,
    feePolicyVersion: m.feePolicyVersion,
    placeFeeBps: 0,
    buyFeeBps: 0,
    sellExitFeeBps: m.sellExitFeeBps,
    winningsExitFeeBps: m.winningsExitFeeBps,
    tickSizeBps: m.tickSizeBps,
    minPriceBps: 1,
    maxPriceBps: 9999,
    minSize: m.minSize.toString(),
    lmsrSeed: m.lmsrSeed === null ? null : m.lmsrSeed.toString(),
    closeTime: iso(m.closeTime),
  };
}

export function marketDetail(m: CatalogMarket): z.input<typeof marketDetailSchema> {
  let detail = details.get(m);
  if (!detail) details.set(m, (detail = freezeView(buildMarketDetail(m))));
  return detail;
}

function buildMarketDetail(m: CatalogMarket): z.input<typeof marketDetailSchema> {
  return {
    ...buildMarketRow(m, {}),
    description: m.description,
    openTime: iso(m.openTime),
    creatorResolveBy: iso(m.creatorResolveBy),
    challengeBy: isoOrNull(m.challengeBy),
    humanVote: { endsAt: isoOrNull(m.humanVoteEndsAt) },
    councilReviewEndsAt: isoOrNull(m.councilReviewEndsAt),
    resolvedAt: isoOrNull(m.resolvedAt),
    resolvedOutcome: m.resolvedOutcome,
    tradeCount: m.tradeCount,
    tradingRules: tradingRules(m),
  };
}
