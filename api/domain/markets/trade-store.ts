/**
 * Trades and price frames of the catalog. The trading side calls `recordTrade` after each fill (or LMSR trade) it
 * commits; the catalog keeps the market's last prices, total volume, a trade list and one-minute OHLC frames per
 * outcome, which the chart aggregates to the window's step.
 */
import type { Database, SqlRunner } from "../../../relayer/db/client";
import { cachedRead } from "./catalog-cache";

export interface TradeInput {
  /** Outcome the price refers to (0 = YES of a binary market); default 0. */
  outcome?: number;
  /** Price in basis points 1..9999 (order books) ... */
  priceBps?: number;
  /** ... or probability 0..1 (LMSR); exactly one of the two. */
  probability?: number;
  /** Outcome shares, smallest units. */
  size: bigint;
  /** Collateral paid, smallest units; default size x price. */
  notional?: bigint;
  takerSide?: "buy" | "sell";
  /** Epoch ms of execution. */
  at: number;
}

export interface RecordedTrade {
  id: string;
  outcome: number;
  pricePpm: number;
  size: bigint;
  notional: bigint;
  takerSide: "buy" | "sell" | null;
  at: number;
}

export const MINUTE_MS = 60_000;

function ppmOf(t: TradeInput): number {
  if ((t.priceBps === undefined) === (t.probability === undefined)) throw new Error("recordTrade: give exactly one of priceBps and probability");
  if (t.priceBps !== undefined) {
    if (!Number.isInteger(t.priceBps) || t.priceBps < 1 || t.priceBps > 9999) throw new Error(`recordTrade: priceBps ${t.priceBps} is not 1..9999`);
    return t.priceBps * 100;
  }
  const p = t.probability as number;
  if (!(p >= 0 && p <= 1)) throw new Error(`recordTrade: probability ${p} is not 0..1`);
  return Math.round(p * 1_000_000);
}

/**
 * Records one trade of a catalog market (by address; `chainId` needed only when the address is listed on two chains).
 * A binary market's other outcome gets the complementary price. A trade older than the market's last one is kept in
 * the list and the frames but does not move the last price.
 */
export async function recordTrade(db: Database, marketAddress: string, trade: TradeInput, opts: { chainId?: number } = {}): Promise<RecordedTrade> {
  const ppm = ppmOf(trade);
  if (trade.size <= 0n) throw new Error("recordTrade: size must be positive");
  const notional = trade.notional ?? (trade.size * BigInt(ppm)) / 1_000_000n;
  const outcome = trade.outcome ?? 0;
  return db.transaction(async (tx) => {
    const found = await tx.query<{ id: unknown; outcomes: unknown; last_prices: unknown; last_trade_at: unknown }>(
      `SELECT id, outcomes, last_prices, last_trade_at FROM markets WHERE address = $1 AND ($2::integer IS NULL OR chain_id = $2) FOR UPDATE`,
      [marketAddress.toLowerCase(), opts.chainId ?? null],
    );
    if (found.length === 0) throw new Error(`recordTrade: no market ${marketAddress}`);
    if (found.length > 1) throw new Error(`recordTrade: ${marketAddress} is listed on several chains; pass chainId`);
    const row = found[0];
    const pk = String(row.id);
    const outcomes = (typeof row.outcomes === "string" ? JSON.parse(row.outcomes) : row.outcomes) as string[];
    if (!Number.isInteger(outcome) || outcome < 0 || outcome >= outcomes.length) throw new Error(`recordTrade: outcome ${outcome} out of range`);
    const prices = (typeof row.last_prices === "string" ? JSON.parse(row.last_prices) : row.last_prices) as (number | null)[];
    const moves: [number, number][] = [[outcome, ppm]];
    if (outcomes.length === 2) moves.push([1 - outcome, 1_000_000 - ppm]);
    const lastAt = row.last_trade_at === null ? null : Number(row.last_trade_at);
    if (lastAt === null || trade.at >= lastAt) for (const [o, p] of moves) prices[o] = p;
    const inserted = await tx.query<{ id: unknown }>(
      `INSERT INTO market_trades (market_pk, outcome, price_ppm, size, notional, taker_side, at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [pk, outcome, ppm, trade.size.toString(), notional.toString(), trade.takerSide ?? null, trade.at],
    );
    await tx.query(
      `UPDATE markets SET last_prices = $2::text::jsonb, last_trade_at = GREATEST(COALESCE(last_trade_at, $3), $3),
         volume_total = volume_total + $4, trade_count = trade_count + 1 WHERE id = $1`,
      [pk, JSON.stringify(prices), trade.at, notional.toString()],
    );
    const bucket = Math.floor(trade.at / MINUTE_MS) * MINUTE_MS;
    for (const [o, p] of moves) {
      await tx.query(
        `INSERT INTO market_price_frames (market_pk, outcome, bucket, open_ppm, high_ppm, low_ppm, close_ppm, close_at, volume, trades)
         VALUES ($1, $2, $3, $4, $4, $4, $4, $5, $6, 1)
         ON CONFLICT (market_pk, outcome, bucket) DO UPDATE SET
           high_ppm = GREATEST(market_price_frames.high_ppm, EXCLUDED.high_ppm),
           low_ppm = LEAST(market_price_frames.low_ppm, EXCLUDED.low_ppm),
           close_ppm = CASE WHEN EXCLUDED.close_at >= market_price_frames.close_at THEN EXCLUDED.close_ppm ELSE market_price_frames.close_ppm END,
           close_at = GREATEST(market_price_frames.close_at, EXCLUDED.close_at),
           volume = market_price_frames.volume + EXCLUDED.volume,
           trades = market_price_frames.trades + 1`,
        [pk, o, bucket, p, trade.at, o === outcome ? notional.toString() : "0"],
      );
    }
    return { id: String(inserted[0].id), outcome, pricePpm: ppm, size: trade.size, notional, takerSide: trade.takerSide ?? null, at: trade.at };
  });
}

/**
 * Newest first. Given the read's `now`, answered from the in-process catalog cache when it holds the answer (the list
 * itself does not depend on the clock; `now` only picks the cache epoch).
 */
export function recentTrades(db: SqlRunner, marketPk: bigint, limit: number, now?: number): Promise<RecordedTrade[]> {
  if (now === undefined) return loadRecentTrades(db, marketPk, limit);
  return cachedRead(db, `t\u0000${marketPk}\u0000${limit}`, now, () => loadRecentTrades(db, marketPk, limit));
}

async function loadRecentTrades(db: SqlRunner, marketPk: bigint, limit: number): Promise<RecordedTrade[]> {
  const rows = await db.query(
    `SELECT id, outcome, price_ppm, size, notional, taker_side, at FROM market_trades WHERE market_pk = $1 ORDER BY at DESC, id DESC LIMIT $2`,
    [marketPk.toString(), limit],
  );
  return rows.map((r) => ({
    id: String(r.id),
    outcome: Number(r.outcome),
    pricePpm: Number(r.price_ppm),
    size: BigInt(String(r.size)),
    notional: BigInt(String(r.notional)),
    takerSide: (r.taker_side as "buy" | "sell" | null) ?? null,
    at: Number(r.at),
  }));
}

export type ChartWindow = "1H" | "1D" | "1W" | "ALL";

/** Span and step of each chart window (ms); ALL has no lower bound. */
export const CHART_WINDOWS: Record<ChartWindow, { span: number | null; step: number }> = {
  "1H": { span: 3_600_000, step: MINUTE_MS },
  "1D": { span: 86_400_000, step: 15 * MINUTE_MS },
  "1W": { span: 7 * 86_400_000, step: 2 * 3_600_000 },
  ALL: { span: null, step: 86_400_000 },
};

export interface PriceFrame {
  /** Start of the frame, epoch ms. */
  start: number;
  outcome: number;
  openPpm: number;
  highPpm: number;
  lowPpm: number;
  closePpm: number;
  volume: bigint;
  trades: number;
}

/** The minute frames of a window, merged to the window's step; oldest first, per outcome. */
export async function chartFrames(db: SqlRunner, marketPk: bigint, window: ChartWindow, now: number): Promise<PriceFrame[]> {
  const { span, step } = CHART_WINDOWS[window];
  const from = span === null ? 0 : now - span;
  const rows = await db.query(
    `SELECT (bucket / $3) * $3 AS start, outcome,
       (array_agg(open_ppm ORDER BY bucket ASC))[1] AS open_ppm, MAX(high_ppm) AS high_ppm, MIN(low_ppm) AS low_ppm,
       (array_agg(close_ppm ORDER BY bucket DESC))[1] AS close_ppm, SUM(volume) AS volume, SUM(trades) AS trades
     FROM market_price_frames WHERE market_pk = $1 AND bucket >= $2 AND bucket <= $4
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [marketPk.toString(), Math.floor(from / MINUTE_MS) * MINUTE_MS, step, now],
  );
  return rows.map((r) => ({
    start: Number(r.start),
    outcome: Number(r.outcome),
    openPpm: Number(r.open_ppm),
    highPpm: Number(r.high_ppm),
    lowPpm: Number(r.low_ppm),
    closePpm: Number(r.close_ppm),
    volume: BigInt(String(r.volume)),
    trades: Number(r.trades),
  }));
}
