/**
 * The `/discover/markets` list: filters, sorts, the keyset cursor of sort `new`, and search (case-insensitive
 * substring of title or description, or a pg_trgm word-similarity match of the title so that a typo still finds it).
 */
import type { SqlRunner } from "../../../relayer/db/client";
import type { MarketState } from "../protocol/market-states";
import { DAY_MS, EFFECTIVE_STATE_SQL, MARKET_COLUMNS, MARKET_COLUMNS_JOINED_VOLUME, marketFromRow } from "./catalog-store";
import type { CatalogMarket, PricingModel } from "./catalog-types";
import type { KeysetPosition } from "./cursor";
import { cachedRead } from "./catalog-cache";

export type MarketSort = "new" | "volume_24h" | "closing_soon" | "resolved_newest";

export interface MarketListQuery {
  pageSize: number;
  sort: MarketSort;
  cursor?: KeysetPosition;
  category?: string;
  marketState?: MarketState;
  chainId?: number;
  address?: string;
  creator?: string;
  sourceConditionId?: string;
  sourceTokenId?: string;
  search?: string;
  pricingModel?: PricingModel;
  electionRegion?: string;
  electionPlace?: string;
  electionOffice?: string;
  /** Leave out this catalog row (related markets). */
  excludePk?: bigint;
}

export interface MarketListPage {
  markets: CatalogMarket[];
  /** Position after the last row when more rows follow (sort `new` only). */
  next: KeysetPosition | null;
}

/** word_similarity at or above which a title matches a search term with typos: pg_trgm's default threshold. */
export const TRIGRAM_THRESHOLD = 0.6;

/** ILIKE pattern of a literal substring. */
function likePattern(s: string): string {
  return `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** 24 h volume of every market that traded, in one pass over the recent trades (sort volume_24h). */
const VOLUME_JOIN = `LEFT JOIN (SELECT market_pk, SUM(notional) AS v24 FROM market_trades WHERE at > $1::bigint - ${DAY_MS} GROUP BY market_pk) v ON v.market_pk = m.id`;

/** One page, from the in-process catalog cache when it holds the answer (catalog-cache.ts). */
export function listMarkets(db: SqlRunner, q: MarketListQuery, now: number): Promise<MarketListPage> {
  return cachedRead(db, `l\u0000${listKey(q)}`, now, () => loadMarketList(db, q, now));
}

/** The cache key of a query: every field that shapes the answer, in a fixed order. */
function listKey(q: MarketListQuery): string {
  return JSON.stringify([
    q.pageSize,
    q.sort,
    q.cursor ? [q.cursor.createdAt, q.cursor.id] : null,
    q.category,
    q.marketState,
    q.chainId,
    q.address?.toLowerCase(),
    q.creator?.toLowerCase(),
    q.sourceConditionId?.toLowerCase(),
    q.sourceTokenId,
    q.search,
    q.pricingModel,
    q.electionRegion,
    q.electionPlace,
    q.electionOffice,
    q.excludePk?.toString(),
  ]);
}

/**
 * The LIMIT of a page, written into the text: with it a parameter, Postgres plans the statement anew on every call
 * (a LIMIT it cannot see makes the cached generic plan look dear), 1.7 ms a list on PGlite against 0.5 ms.
 */
function limitOf(pageSize: number): number {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new Error(`page size ${pageSize} is not a positive integer`);
  return pageSize + 1;
}

async function loadMarketList(db: SqlRunner, q: MarketListQuery, now: number): Promise<MarketListPage> {
  const params: unknown[] = [now];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (q.marketState) where.push(`${EFFECTIVE_STATE_SQL} = ${p(q.marketState)}`);
  else if (q.sort === "resolved_newest") where.push(`${EFFECTIVE_STATE_SQL} = 'resolved'`);
  // "A list of active markets": without a state filter the terminal states are left out.
  else where.push(`${EFFECTIVE_STATE_SQL} NOT IN ('resolved', 'void')`);
  if (q.sort === "closing_soon" && !q.marketState) where.push(`m.close_time > $1::bigint`);
  if (q.category) where.push(`m.category = ${p(q.category)}`);
  if (q.chainId !== undefined) where.push(`m.chain_id = ${p(q.chainId)}`);
  if (q.address) where.push(`m.address = ${p(q.address.toLowerCase())}`);
  if (q.creator) where.push(`m.creator = ${p(q.creator.toLowerCase())}`);
  if (q.sourceConditionId) where.push(`m.source_condition_id = ${p(q.sourceConditionId.toLowerCase())}`);
  if (q.sourceTokenId) where.push(`m.source_token_ids @> jsonb_build_array(${p(q.sourceTokenId)}::text)`);
  if (q.pricingModel) where.push(`m.pricing_model = ${p(q.pricingModel)}`);
  if (q.electionRegion) where.push(`m.election_region = ${p(q.electionRegion)}`);
  if (q.electionPlace) where.push(`m.election_place = ${p(q.electionPlace)}`);
  if (q.electionOffice) where.push(`m.election_office = ${p(q.electionOffice)}`);
  if (q.excludePk !== undefined) where.push(`m.id <> ${p(q.excludePk.toString())}::bigint`);
  if (q.search) {
    const like = p(likePattern(q.search));
    // `<%` is word_similarity >= pg_trgm.word_similarity_threshold (0.6 unless changed); with ILIKE it is served by
    // the GIN trigram indexes of title and description instead of a scan.
    where.push(`(m.title ILIKE ${like} OR m.description ILIKE ${like} OR ${p(q.search)} <% m.title)`);
  }
  if (q.cursor) where.push(`(m.created_at, m.id) < (${p(q.cursor.createdAt)}::bigint, ${p(q.cursor.id)}::bigint)`);
  const order = {
    new: `m.created_at DESC, m.id DESC`,
    volume_24h: `COALESCE(v.v24, 0) DESC, m.created_at DESC, m.id DESC`,
    closing_soon: `m.close_time ASC, m.id ASC`,
    resolved_newest: `m.resolved_at DESC NULLS LAST, m.id DESC`,
  }[q.sort];
  const rows = await db.query(
    `SELECT ${q.sort === "volume_24h" ? `${MARKET_COLUMNS_JOINED_VOLUME} FROM markets m ${VOLUME_JOIN}` : `${MARKET_COLUMNS} FROM markets m`} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY ${order} LIMIT ${limitOf(q.pageSize)}`,
    params,
  );
  const markets = rows.slice(0, q.pageSize).map(marketFromRow);
  const more = rows.length > q.pageSize;
  const last = markets[markets.length - 1];
  return { markets, next: more && q.sort === "new" && last ? { createdAt: last.createdAt, id: last.pk.toString() } : null };
}
