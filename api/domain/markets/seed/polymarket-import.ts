/**
 * Import of Polymarket-style market JSON (an array of Gamma-API-like objects) into MarketSpecs. Only the fields we
 * need are read; each bad entry is reported with its index and field instead of stopping the whole import.
 */
import { z } from "zod";
import { MARKET_CATEGORIES, marketSpecSchema, type MarketSpec } from "./market-spec";

const polymarketEntry = z.object({
  conditionId: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  question: z.string().min(5),
  description: z.string().optional(),
  category: z.string().optional(),
  endDate: z.string().refine((s) => !Number.isNaN(Date.parse(s)), "must be a date"),
  outcomes: z.union([z.array(z.string()), z.string()]).optional(),
  clobTokenIds: z.union([z.array(z.string()), z.string()]).optional(),
  /** Order book markets on the source stay order-book markets here unless told otherwise. */
  enableOrderBook: z.boolean().optional(),
});

/** Polymarket encodes some arrays as JSON strings. */
function stringList(v: string[] | string | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v : (JSON.parse(v) as string[]);
}

function categoryOf(raw: string | undefined): MarketSpec["category"] {
  const up = (raw ?? "").toUpperCase().replace(/[^A-Z]+/g, "_");
  return (MARKET_CATEGORIES as readonly string[]).includes(up) ? (up as MarketSpec["category"]) : "OTHER";
}

export interface ImportResult {
  markets: MarketSpec[];
  errors: { index: number; message: string }[];
}

export function importPolymarketJson(json: unknown, opts: { seed?: bigint } = {}): ImportResult {
  const list = Array.isArray(json) ? json : [json];
  const result: ImportResult = { markets: [], errors: [] };
  list.forEach((raw, index) => {
    const p = polymarketEntry.safeParse(raw);
    if (!p.success) {
      result.errors.push({ index, message: `${p.error.issues[0].path.join(".")}: ${p.error.issues[0].message}` });
      return;
    }
    const e = p.data;
    try {
      const outcomes = stringList(e.outcomes) ?? ["Yes", "No"];
      const orderBook = (e.enableOrderBook ?? true) && outcomes.length === 2;
      const spec = marketSpecSchema.parse({
        externalId: `polymarket:${e.conditionId.toLowerCase()}`,
        title: e.question,
        description: e.description ?? "",
        category: categoryOf(e.category),
        pricingModel: orderBook ? "ORDERBOOK" : "automated",
        outcomes,
        closeTime: Date.parse(e.endDate),
        seed: orderBook ? undefined : (opts.seed ?? 1_000_000_000n),
        resolutionSource: { type: "polymarket", conditionId: e.conditionId },
        sourceConditionId: e.conditionId,
        sourceTokenIds: stringList(e.clobTokenIds),
      });
      result.markets.push(spec);
    } catch (err) {
      const issue = err instanceof z.ZodError ? `${err.issues[0].path.join(".")}: ${err.issues[0].message}` : (err as Error).message;
      result.errors.push({ index, message: issue });
    }
  });
  return result;
}
