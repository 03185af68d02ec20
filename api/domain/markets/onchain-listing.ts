/**
 * The seam through which on-chain (LmsrMarket) markets join the catalog, so `/discover/markets` and the detail show
 * one venue with two lanes. The on-chain projection (api/domain/onchain/catalog-sync.ts) calls `upsertOnchainMarket` for
 * each market it sees and again when its state or deadlines move, and `setOnchainActivity` when its prices, volume or
 * trades moved; depth, chart, trades and holders of those markets come from `Services.marketData.onchain`.
 */
import type { Database, SqlRunner } from "../../../relayer/db/client";
import type { MarketState } from "../protocol/market-states";
import { insertCatalogMarket, loadMarket } from "./catalog-store";
import type { CatalogMarket, NewCatalogMarket } from "./catalog-types";

export type OnchainListing = Omit<NewCatalogMarket, "settlement" | "marketId" | "address"> & {
  address: string;
  /** Where the market stands now, as the chain says. */
  state?: MarketState;
  challengeBy?: number | null;
  humanVoteEndsAt?: number | null;
  councilReviewEndsAt?: number | null;
  resolvedAt?: number | null;
  resolvedOutcome?: number | null;
};

/**
 * Lists an on-chain market, or refreshes the lifecycle fields of a listed one (state, stage deadlines, resolution).
 * The chain is the authority here, so no transition check applies; the stamped trading rules never change.
 */
export async function upsertOnchainMarket(db: SqlRunner, m: OnchainListing): Promise<CatalogMarket> {
  const { challengeBy, humanVoteEndsAt, councilReviewEndsAt, resolvedAt, resolvedOutcome, ...listing } = m;
  if (!(await loadMarket(db, m.chainId, m.address, m.createdAt))) {
    try {
      await insertCatalogMarket(db, { ...listing, settlement: "onchain" });
    } catch (err) {
      // A concurrent projection listed it first: refresh below.
      if ((err as { code?: unknown }).code !== "23505") throw err;
    }
  }
  await db.query(
    `UPDATE markets SET state = COALESCE($3, state), challenge_by = COALESCE($4, challenge_by),
       human_vote_ends_at = COALESCE($5, human_vote_ends_at), council_review_ends_at = COALESCE($6, council_review_ends_at),
       resolved_at = COALESCE($7, resolved_at), resolved_outcome = COALESCE($8, resolved_outcome)
     WHERE chain_id = $1 AND address = $2 AND settlement = 'onchain'`,
    [
      m.chainId,
      m.address.toLowerCase(),
      m.state ?? null,
      challengeBy ?? null,
      humanVoteEndsAt ?? null,
      councilReviewEndsAt ?? null,
      resolvedAt ?? null,
      resolvedOutcome ?? null,
    ],
  );
  const row = await loadMarket(db, m.chainId, m.address, m.createdAt);
  if (row?.settlement !== "onchain") throw new Error(`${m.address} on chain ${m.chainId} is listed as a committed market`);
  return row;
}

/** What the catalog holds of an onchain market, to tell whether the projection moved since the last sync. */
export interface OnchainCatalogEntry {
  state: MarketState;
  resolvedAt: number | null;
  resolvedOutcome: number | null;
  lastPricesPpm: (number | null)[];
  lastTradeAt: number | null;
  volumeTotal: bigint;
  tradeCount: number;
}

/** Every onchain market of `chainId` in the catalog, by lower-case address (stored state, no clock involved). */
export async function onchainCatalogEntries(db: SqlRunner, chainId: number): Promise<Map<string, OnchainCatalogEntry>> {
  const rows = await db.query(
    `SELECT address, state, resolved_at, resolved_outcome, last_prices, last_trade_at, volume_total::text AS volume_total, trade_count
     FROM markets WHERE chain_id = $1 AND settlement = 'onchain'`,
    [chainId],
  );
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return new Map(
    rows.map((r) => [
      String(r.address),
      {
        state: r.state as MarketState,
        resolvedAt: num(r.resolved_at),
        resolvedOutcome: num(r.resolved_outcome),
        lastPricesPpm: (typeof r.last_prices === "string" ? JSON.parse(r.last_prices) : r.last_prices) as (number | null)[],
        lastTradeAt: num(r.last_trade_at),
        volumeTotal: BigInt(String(r.volume_total).split(".")[0]),
        tradeCount: Number(r.trade_count),
      },
    ]),
  );
}

/** One projected trade as the catalog keeps it (market_trades): post-trade price of its outcome, notional, epoch ms. */
export interface OnchainCatalogTrade {
  outcome: number;
  pricePpm: number;
  size: bigint;
  notional: bigint;
  takerSide: "buy" | "sell";
  at: number;
}

/** The projection's market-level activity, copied into the catalog as absolute values (never increments). */
export interface OnchainActivity {
  lastPricesPpm: number[];
  lastTradeAt: number | null;
  volumeTotal: bigint;
  tradeCount: number;
  /** At least every trade of the last 24 h (the window of volume24h and sort=volume_24h); older ones may be left out. */
  recentTrades: OnchainCatalogTrade[];
}

/**
 * Sets an onchain market's prices, totals and trade list to the projection's, in one transaction. The trade list is
 * replaced, not appended to, so a trade a reorg removed from the projection leaves the catalog too. Writing `markets`
 * and `market_trades` through `db` drops the catalog cache after the commit (Database.onWrite, catalog-cache.ts).
 */
export async function setOnchainActivity(db: Database, chainId: number, address: string, a: OnchainActivity): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: unknown }>(
      `UPDATE markets SET last_prices = $3::text::jsonb, last_trade_at = $4, volume_total = $5, trade_count = $6
       WHERE chain_id = $1 AND address = $2 AND settlement = 'onchain' RETURNING id`,
      [chainId, address.toLowerCase(), JSON.stringify(a.lastPricesPpm), a.lastTradeAt, a.volumeTotal.toString(), a.tradeCount],
    );
    if (!row) throw new Error(`${address} on chain ${chainId} is not an onchain catalog market`);
    await tx.query(`DELETE FROM market_trades WHERE market_pk = $1`, [String(row.id)]);
    if (a.recentTrades.length === 0) return;
    const col = <K extends keyof OnchainCatalogTrade>(k: K) => a.recentTrades.map((t) => String(t[k]));
    await tx.query(
      `INSERT INTO market_trades (market_pk, outcome, price_ppm, size, notional, taker_side, at)
       SELECT $1, t.outcome::integer, t.price_ppm::integer, t.size::numeric, t.notional::numeric, t.taker_side, t.at::bigint
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS t(outcome, price_ppm, size, notional, taker_side, at)`,
      [String(row.id), col("outcome"), col("pricePpm"), col("size"), col("notional"), col("takerSide"), col("at")],
    );
  });
}
