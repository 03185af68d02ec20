/**
 * Where depth, chart, trades and holders of a market come from. The catalog answers what it records (trades and
 * price frames from `recordTrade`); the live book, the LMSR ladder and holder balances belong to the exchange engine
 * (committed lane) and to the on-chain projection (onchain lane). `Services.marketData` holds one complete source per
 * lane, built once in `createServices` (api/open-services.ts); a lane without a live provider answers from the catalog, with
 * empty books and `source: "catalog"`.
 */
import { z } from "zod";
import type { Database } from "../../../relayer/db/client";
import type { CatalogMarket, Settlement } from "./catalog-types";
import { chartFrames, recentTrades, CHART_WINDOWS, type ChartWindow } from "./trade-store";
import { sideOf } from "./market-view";

const IsoTimestamp = z.string();
const WeiString = z.string().regex(/^\d+$/);
const BpsString = z
  .string()
  .regex(/^\d{1,4}$/)
  .describe("price in basis points, 1..9999");
const sourceField = z.string().describe("what answered: catalog, engine or onchain");

export const depthSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("orderbook"),
    address: z.string(),
    chainId: z.number().int(),
    levels: z.number().int(),
    bids: z.array(z.object({ priceBps: BpsString, size: WeiString })),
    asks: z.array(z.object({ priceBps: BpsString, size: WeiString })),
    asOf: IsoTimestamp,
    source: sourceField,
  }),
  z.object({
    kind: z.literal("lmsr"),
    address: z.string(),
    chainId: z.number().int(),
    levels: z.number().int(),
    outcomes: z.array(
      z.object({
        index: z.number().int(),
        label: z.string(),
        probability: z.number().min(0).max(1).nullable(),
        /** Buy ladder: cumulative cost (collateral) of buying `size` shares and the average price paid. */
        ladder: z.array(z.object({ size: WeiString, cost: WeiString, averageProbability: z.number() })),
      }),
    ),
    asOf: IsoTimestamp,
    source: sourceField,
  }),
]);
export type MarketDepth = z.input<typeof depthSchema>;

export const tradeSchema = z.object({
  id: z.string(),
  at: IsoTimestamp,
  outcome: z.number().int(),
  side: z.string().describe("YES/NO for binary markets, else the outcome label"),
  probability: z.number().min(0).max(1),
  priceBps: BpsString,
  size: WeiString,
  notional: WeiString,
  takerSide: z.enum(["buy", "sell"]).nullable(),
});
export const tradesSchema = z.object({ address: z.string(), chainId: z.number().int(), trades: z.array(tradeSchema), source: sourceField });
export type MarketTrades = z.input<typeof tradesSchema>;

export const holdersSchema = z.object({
  address: z.string(),
  chainId: z.number().int(),
  outcomes: z.array(
    z.object({
      index: z.number().int(),
      label: z.string(),
      holders: z.array(z.object({ account: z.string(), size: WeiString })),
      /** Shares of this outcome held in total; null when the source does not know. */
      outstanding: WeiString.nullable(),
    }),
  ),
  openInterest: WeiString.nullable(),
  asOf: IsoTimestamp,
  source: sourceField,
});
export type MarketHolders = z.input<typeof holdersSchema>;

export const chartSchema = z.object({
  address: z.string(),
  chainId: z.number().int(),
  window: z.enum(["1H", "1D", "1W", "ALL"]),
  stepMs: z.number().int(),
  frames: z.array(
    z.object({
      start: IsoTimestamp,
      outcome: z.number().int(),
      open: z.number(),
      high: z.number(),
      low: z.number(),
      close: z.number(),
      volume: WeiString,
      trades: z.number().int(),
    }),
  ),
  latest: z.object({ at: IsoTimestamp.nullable(), probabilities: z.array(z.number().nullable()) }),
  source: sourceField,
});
export type MarketChart = z.input<typeof chartSchema>;

/** What a lane's market-data provider answers. `market.marketId` keys the engine (committed lane). */
export interface MarketDataSource {
  depth(market: CatalogMarket, levels: number): Promise<MarketDepth>;
  trades(market: CatalogMarket, limit: number): Promise<MarketTrades>;
  holders(market: CatalogMarket): Promise<MarketHolders>;
  chart(market: CatalogMarket, window: ChartWindow): Promise<MarketChart>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The catalog's own answers: recorded trades and frames; no book, no ladder, no holder balances. */
export function catalogDataSource(db: Database, now: () => number): MarketDataSource {
  return {
    async depth(m, levels) {
      const base = { address: m.address, chainId: m.chainId, levels, asOf: iso(now()), source: "catalog" };
      if (m.pricingModel === "ORDERBOOK") return { kind: "orderbook", ...base, bids: [], asks: [] };
      return {
        kind: "lmsr",
        ...base,
        outcomes: m.outcomes.map((label, index) => ({ index, label, probability: ppm(m.lastPricesPpm[index] ?? null), ladder: [] })),
      };
    },
    async trades(m, limit) {
      const rows = await recentTrades(db, m.pk, limit, now());
      return {
        address: m.address,
        chainId: m.chainId,
        source: "catalog",
        trades: rows.map((t) => ({
          id: t.id,
          at: iso(t.at),
          outcome: t.outcome,
          side: sideOf(m, t.outcome),
          probability: t.pricePpm / 1_000_000,
          priceBps: String(Math.round(t.pricePpm / 100)),
          size: t.size.toString(),
          notional: t.notional.toString(),
          takerSide: t.takerSide,
        })),
      };
    },
    async holders(m) {
      return {
        address: m.address,
        chainId: m.chainId,
        outcomes: m.outcomes.map((label, index) => ({ index, label, holders: [], outstanding: null })),
        openInterest: null,
        asOf: iso(now()),
        source: "catalog",
      };
    },
    async chart(m, window) {
      const frames = await chartFrames(db, m.pk, window, now());
      return {
        address: m.address,
        chainId: m.chainId,
        window,
        stepMs: CHART_WINDOWS[window].step,
        frames: frames.map((f) => ({
          start: iso(f.start),
          outcome: f.outcome,
          open: f.openPpm / 1e6,
          high: f.highPpm / 1e6,
          low: f.lowPpm / 1e6,
          close: f.closePpm / 1e6,
          volume: f.volume.toString(),
          trades: f.trades,
        })),
        latest: { at: m.lastTradeAt === null ? null : iso(m.lastTradeAt), probabilities: m.outcomes.map((_, i) => ppm(m.lastPricesPpm[i] ?? null)) },
        source: "catalog",
      };
    },
  };
}

const ppm = (v: number | null) => (v === null ? null : v / 1_000_000);

/** One complete provider per lane (`Services.marketData`); a market's lane picks it: `sources[market.settlement]`. */
export type MarketDataSources = Record<Settlement, MarketDataSource>;

/**
 * A lane's provider (the engine for `committed`, api/domain/onchain for `onchain`) made complete: methods it leaves out
 * answer from the catalog source, so a provider may answer only depth and holders.
 */
export function withCatalogFallback(db: Database, now: () => number, source: Partial<MarketDataSource>): MarketDataSource {
  const fallback = catalogDataSource(db, now);
  return {
    depth: source.depth?.bind(source) ?? fallback.depth,
    trades: source.trades?.bind(source) ?? fallback.trades,
    holders: source.holders?.bind(source) ?? fallback.holders,
    chart: source.chart?.bind(source) ?? fallback.chart,
  };
}
