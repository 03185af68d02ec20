/**
 * The market catalog (tables of migration 210): listing markets of both settlement lanes, reading them back with
 * their effective state and 24 h volume, and the lifecycle updates the resolution side makes. Trades and price frames
 * live in trade-store.ts. Both drivers are read the same way: numbers may come back as strings, jsonb as text.
 */
import { normalizeAccount, poolAccountOf } from "../../../decoder/assets";
import type { SqlRunner } from "../../../relayer/db/client";
import { rowSink } from "../../../relayer/db/group-commit";
import { RESOLUTION_WINDOWS } from "../protocol/rules";
import { isTransitionAllowed, type MarketState } from "../protocol/market-states";
import { FEE_DEFAULTS } from "./fee-defaults";
import { cachedRead } from "./catalog-cache";
import type { CatalogMarket, NewCatalogMarket } from "./catalog-types";

export const DAY_MS = 86_400_000;

/** Default smallest order size: 1 share (6 decimals). */
export const DEFAULT_MIN_SIZE = 1_000_000n;

/** The state a row reads at `now` (the parameter `nowParam`): stored `open` past closeTime is `closed`. */
const effectiveStateSql = (nowParam: string) => `(CASE WHEN m.state = 'open' AND m.close_time <= ${nowParam}::bigint THEN 'closed' ELSE m.state END)`;
/** The effective state of every read, whose `$1` is the read's `now`. */
export const EFFECTIVE_STATE_SQL = effectiveStateSql("$1");

/** Columns of every read; `$1` must be the read's `now`. */
export const MARKET_COLUMNS = `m.*, ${EFFECTIVE_STATE_SQL} AS eff_state,
  (SELECT COALESCE(SUM(t.notional), 0) FROM market_trades t WHERE t.market_pk = m.id AND t.at > $1::bigint - ${DAY_MS}) AS volume_24h`;

/** The same columns when the query joins the 24 h volumes as `v` (sort volume_24h). */
export const MARKET_COLUMNS_JOINED_VOLUME = `m.*, ${EFFECTIVE_STATE_SQL} AS eff_state, COALESCE(v.v24, 0) AS volume_24h`;

type Row = Record<string, unknown>;

const n = (v: unknown): number => Number(v);
const nOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const big = (v: unknown): bigint => BigInt(String(v).split(".")[0]);
const json = <T>(v: unknown): T => (typeof v === "string" ? (JSON.parse(v) as T) : (v as T));

export function marketFromRow(r: Row): CatalogMarket {
  return {
    pk: big(r.id),
    chainId: n(r.chain_id),
    address: String(r.address),
    marketId: r.market_id === null || r.market_id === undefined ? null : big(r.market_id),
    settlement: r.settlement as CatalogMarket["settlement"],
    pricingModel: r.pricing_model as CatalogMarket["pricingModel"],
    title: String(r.title),
    description: String(r.description),
    category: String(r.category),
    outcomes: json<string[]>(r.outcomes),
    state: String(r.eff_state ?? r.state) as MarketState,
    creator: String(r.creator),
    collateral: { symbol: String(r.collateral_symbol), decimals: n(r.collateral_decimals), token: (r.collateral_token as string | null) ?? null },
    openTime: n(r.open_time),
    closeTime: n(r.close_time),
    creatorResolveBy: n(r.creator_resolve_by),
    challengeBy: nOrNull(r.challenge_by),
    humanVoteEndsAt: nOrNull(r.human_vote_ends_at),
    councilReviewEndsAt: nOrNull(r.council_review_ends_at),
    resolvedAt: nOrNull(r.resolved_at),
    resolvedOutcome: nOrNull(r.resolved_outcome),
    takerFeeBps: n(r.taker_fee_bps),
    feePolicyVersion: String(r.fee_policy_version),
    sellExitFeeBps: n(r.sell_exit_fee_bps),
    winningsExitFeeBps: n(r.winnings_exit_fee_bps),
    tickSizeBps: n(r.tick_size_bps),
    minSize: big(r.min_size),
    lmsrSeed: r.lmsr_seed === null || r.lmsr_seed === undefined ? null : big(r.lmsr_seed),
    resolutionSource: json<Record<string, unknown>>(r.resolution_source),
    sourceConditionId: (r.source_condition_id as string | null) ?? null,
    sourceTokenIds: r.source_token_ids === null || r.source_token_ids === undefined ? null : json<string[]>(r.source_token_ids),
    election: r.election_region
      ? { region: String(r.election_region), place: (r.election_place as string | null) ?? null, office: (r.election_office as string | null) ?? null }
      : null,
    externalId: (r.external_id as string | null) ?? null,
    lastPricesPpm: json<(number | null)[]>(r.last_prices),
    lastTradeAt: nOrNull(r.last_trade_at),
    volumeTotal: big(r.volume_total),
    volume24h: big(r.volume_24h ?? 0),
    tradeCount: n(r.trade_count),
    createdAt: n(r.created_at),
  };
}

/** Opening prices: LMSR starts uniform; an order book has no price until something trades. */
function initialPrices(m: NewCatalogMarket): (number | null)[] {
  if (m.pricingModel === "ORDERBOOK") return m.outcomes.map(() => null);
  const each = Math.floor(1_000_000 / m.outcomes.length);
  return m.outcomes.map(() => each);
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "23505";
}

// Reads come in two kinds: the exported ones answer from the in-process catalog cache (catalog-cache.ts, exact for
// the clock, bounded staleness for other instances' writes); the `load*` ones always ask the database and serve the
// write paths, which must see the committed row (a uniqueness retry, a transition check).

/** The market `creator` listed under `externalId` (external ids are unique per creator). */
async function loadMarketByExternalId(db: SqlRunner, creator: string, externalId: string, now: number): Promise<CatalogMarket | null> {
  const rows = await db.query(`SELECT ${MARKET_COLUMNS} FROM markets m WHERE m.creator = $2 AND m.external_id = $3`, [
    now,
    normalizeAccount(creator),
    externalId,
  ]);
  return rows[0] ? marketFromRow(rows[0]) : null;
}

/** getMarket without the cache: what the database holds now (write paths). */
export async function loadMarket(db: SqlRunner, chainId: number, address: string, now: number): Promise<CatalogMarket | null> {
  const rows = await db.query(`SELECT ${MARKET_COLUMNS} FROM markets m WHERE m.chain_id = $2 AND m.address = $3`, [now, chainId, address.toLowerCase()]);
  return rows[0] ? marketFromRow(rows[0]) : null;
}

export function getMarketByExternalId(db: SqlRunner, creator: string, externalId: string, now: number): Promise<CatalogMarket | null> {
  return cachedRead(db, `x\u0000${creator.toLowerCase()}\u0000${externalId}`, now, () => loadMarketByExternalId(db, creator, externalId, now));
}

export function getMarket(db: SqlRunner, chainId: number, address: string, now: number): Promise<CatalogMarket | null> {
  const a = address.toLowerCase();
  return cachedRead(db, `m\u0000${chainId}\u0000${a}`, now, () => loadMarket(db, chainId, a, now));
}

/** Markets by address on one chain, keyed by lowercase address (absent ones are missing from the map). */
export async function getMarkets(db: SqlRunner, chainId: number, addresses: string[], now: number): Promise<Map<string, CatalogMarket>> {
  const unique = [...new Set(addresses.map((a) => a.toLowerCase()))];
  const rows = await cachedRead(db, `b\u0000${chainId}\u0000${[...unique].sort().join(",")}`, now, () =>
    db
      .query(`SELECT ${MARKET_COLUMNS} FROM markets m WHERE m.chain_id = $2 AND m.address = ANY($3::text[])`, [now, chainId, unique])
      .then((rs) => rs.map(marketFromRow)),
  );
  return new Map(rows.map((m) => [m.address, m]));
}

export interface InsertResult {
  market: CatalogMarket;
  /** False when a market with the same externalId was already listed (nothing changed). */
  created: boolean;
}

/**
 * Lists a market. Idempotent by (creator, externalId): a second call with a known pair returns the listed market and
 * changes nothing. Committed rows get the next marketId of their chain when none is given; an onchain row keeps the
 * engine market id it is given (its lifecycle's id, docs/lifecycle.md) or none.
 */
/** The columns a listing writes, with their types (created_at last: the RETURNING's `now`). */
const LISTING_COLUMNS: readonly (readonly [string, string])[] = [
  ["chain_id", "integer"],
  ["address", "text"],
  ["market_id", "bigint"],
  ["settlement", "text"],
  ["pricing_model", "text"],
  ["title", "text"],
  ["description", "text"],
  ["category", "text"],
  ["outcomes", "jsonb"],
  ["state", "text"],
  ["creator", "text"],
  ["collateral_symbol", "text"],
  ["collateral_decimals", "integer"],
  ["collateral_token", "text"],
  ["open_time", "bigint"],
  ["close_time", "bigint"],
  ["creator_resolve_by", "bigint"],
  ["taker_fee_bps", "integer"],
  ["fee_policy_version", "text"],
  ["sell_exit_fee_bps", "integer"],
  ["winnings_exit_fee_bps", "integer"],
  ["tick_size_bps", "integer"],
  ["min_size", "numeric"],
  ["lmsr_seed", "numeric"],
  ["resolution_source", "jsonb"],
  ["source_condition_id", "text"],
  ["source_token_ids", "jsonb"],
  ["election_region", "text"],
  ["election_place", "text"],
  ["election_office", "text"],
  ["external_id", "text"],
  ["last_prices", "jsonb"],
  ["created_at", "bigint"],
];

/** A new market's row, column by column (JSON values for jsonb, decimal strings for numerics). */
function listingRow(m: NewCatalogMarket, marketId: bigint | null, address: string): Record<string, unknown> {
  if (m.outcomes.length < 2 || m.outcomes.length > 3) throw new Error(`a market has 2 or 3 outcomes, not ${m.outcomes.length}`);
  if (m.pricingModel === "ORDERBOOK" && m.outcomes.length !== 2) throw new Error("an order-book market is binary");
  if (m.settlement === "onchain" && !m.address) throw new Error("an onchain market needs its contract address");
  const lmsr = m.pricingModel === "automated";
  return {
    chain_id: m.chainId,
    address,
    market_id: marketId === null ? null : marketId.toString(),
    settlement: m.settlement,
    pricing_model: m.pricingModel,
    title: m.title,
    description: m.description ?? "",
    category: m.category,
    outcomes: m.outcomes,
    state: m.state ?? "open",
    creator: normalizeAccount(m.creator),
    collateral_symbol: m.collateral?.symbol ?? "PM",
    collateral_decimals: m.collateral?.decimals ?? 6,
    collateral_token: m.collateral?.token?.toLowerCase() ?? null,
    open_time: m.openTime,
    close_time: m.closeTime,
    creator_resolve_by: m.closeTime + RESOLUTION_WINDOWS.creatorGraceSecondsAfterClose * 1000,
    taker_fee_bps: m.takerFeeBps ?? (lmsr ? FEE_DEFAULTS.lmsr.buyFeeBps : FEE_DEFAULTS.orderbook.routerTakerFeeBps),
    fee_policy_version: m.feePolicyVersion ?? FEE_DEFAULTS.orderbook.feePolicyVersion,
    sell_exit_fee_bps: m.sellExitFeeBps ?? (lmsr ? FEE_DEFAULTS.lmsr.sellExitFeeBps : 0),
    winnings_exit_fee_bps: m.winningsExitFeeBps ?? (lmsr ? FEE_DEFAULTS.lmsr.winningsExitFeeBps : FEE_DEFAULTS.orderbook.winningsExitFeeBps),
    tick_size_bps: m.tickSizeBps ?? 1,
    min_size: (m.minSize ?? DEFAULT_MIN_SIZE).toString(),
    lmsr_seed: m.lmsrSeed === undefined ? null : m.lmsrSeed.toString(),
    resolution_source: m.resolutionSource,
    source_condition_id: m.sourceConditionId?.toLowerCase() ?? null,
    source_token_ids: m.sourceTokenIds ?? null,
    election_region: m.election?.region ?? null,
    election_place: m.election?.place ?? null,
    election_office: m.election?.office ?? null,
    external_id: m.externalId ?? null,
    last_prices: initialPrices(m),
    created_at: m.createdAt,
  };
}

/**
 * Listings written set-based in a group-commit tick (the negotiate flow's committed lane). A row already listed is
 * left as it is: a tick never fails on it.
 */
export const LISTINGS_SINK = rowSink(
  "markets",
  `INSERT INTO markets (${LISTING_COLUMNS.map(([c]) => c).join(", ")})
   SELECT ${LISTING_COLUMNS.map(([c]) => c).join(", ")} FROM json_to_recordset($1::text::json)
     AS x(${LISTING_COLUMNS.map(([c, type]) => `${c} ${type}`).join(", ")})
   ON CONFLICT DO NOTHING`,
);

/**
 * A committed market of a reserved engine id as a LISTINGS_SINK row, and the market as a read will answer it once
 * the row committed (no trades yet; its catalog pk is the database's, unknown here and never shown).
 */
export function committedListing(m: NewCatalogMarket & { marketId: bigint }): { row: string; market: CatalogMarket } {
  if (m.settlement !== "committed") throw new Error("a listing row of the group commit is a committed market's");
  const row = listingRow(m, m.marketId, poolAccountOf(m.marketId).toLowerCase());
  const market = marketFromRow({
    ...row,
    id: 0,
    eff_state: row.state === "open" && m.closeTime <= m.createdAt ? "closed" : row.state,
    volume_total: 0,
    volume_24h: 0,
    trade_count: 0,
  });
  return { row: JSON.stringify(row), market };
}

export async function insertCatalogMarket(db: SqlRunner, m: NewCatalogMarket): Promise<InsertResult> {
  // A committed market of a reserved id (the negotiate flow) skips the look-up: a repeat meets the unique index below.
  if (m.externalId && !(m.settlement === "committed" && m.marketId !== undefined)) {
    const known = await loadMarketByExternalId(db, m.creator, m.externalId, m.createdAt);
    if (known) return { market: known, created: false };
  }
  for (let attempt = 0; ; attempt++) {
    let marketId: bigint | null = null;
    let address = m.address ? normalizeAccount(m.address) : "";
    if (m.settlement === "committed") {
      marketId = m.marketId ?? big((await db.query(`SELECT COALESCE(MAX(market_id), 0) + 1 AS next FROM markets WHERE chain_id = $1`, [m.chainId]))[0].next);
      address = poolAccountOf(marketId).toLowerCase();
    } else if (m.marketId !== undefined) marketId = m.marketId;
    let inserted: Row[];
    try {
      const row = listingRow(m, marketId, address);
      inserted = await db.query(
        `INSERT INTO markets AS m (${LISTING_COLUMNS.map(([c]) => c).join(", ")})
         VALUES (${LISTING_COLUMNS.map(([, type], i) => (type === "jsonb" ? `$${i + 1}::text::jsonb` : `$${i + 1}`)).join(", ")})
         RETURNING m.*, ${effectiveStateSql(`$${LISTING_COLUMNS.length}`)} AS eff_state`,
        LISTING_COLUMNS.map(([c, type]) => (type === "jsonb" && row[c] !== null ? JSON.stringify(row[c]) : row[c])),
      );
    } catch (err) {
      // A concurrent insert took the same marketId or externalId: look again.
      if (!isUniqueViolation(err) || attempt >= 5) throw err;
      if (m.externalId) {
        const known = await loadMarketByExternalId(db, m.creator, m.externalId, m.createdAt);
        if (known) return { market: known, created: false };
      }
      if (m.marketId !== undefined || m.settlement === "onchain") throw err;
      continue;
    }
    // A new market has no trades yet: the row as inserted is the market as read (24 h volume 0).
    return { market: marketFromRow(inserted[0]!), created: true };
  }
}

export interface LifecyclePatch {
  state: MarketState;
  challengeBy?: number | null;
  humanVoteEndsAt?: number | null;
  councilReviewEndsAt?: number | null;
  resolvedOutcome?: number | null;
}

/**
 * Moves a market along the canonical state graph (MARKET_TRANSITIONS) and stamps the deadlines of the new stage.
 * A transition the graph does not allow throws; the resolution side calls this.
 */
export async function setMarketState(db: SqlRunner, chainId: number, address: string, patch: LifecyclePatch, now: number): Promise<CatalogMarket> {
  const current = await loadMarket(db, chainId, address, now);
  if (!current) throw new Error(`no market ${address} on chain ${chainId}`);
  if (current.state !== patch.state && !isTransitionAllowed(current.state, patch.state)) {
    throw new Error(`market ${address}: ${current.state} -> ${patch.state} is not a transition of the state graph`);
  }
  await db.query(
    `UPDATE markets SET state = $3,
       challenge_by = COALESCE($4, challenge_by), human_vote_ends_at = COALESCE($5, human_vote_ends_at),
       council_review_ends_at = COALESCE($6, council_review_ends_at), resolved_outcome = COALESCE($7, resolved_outcome),
       resolved_at = CASE WHEN $3 IN ('resolved', 'void') THEN COALESCE(resolved_at, $8) ELSE resolved_at END
     WHERE chain_id = $1 AND address = $2`,
    [
      chainId,
      current.address,
      patch.state,
      patch.challengeBy ?? null,
      patch.humanVoteEndsAt ?? null,
      patch.councilReviewEndsAt ?? null,
      patch.resolvedOutcome ?? null,
      now,
    ],
  );
  const after = await loadMarket(db, chainId, current.address, now);
  if (!after) throw new Error(`market ${address} vanished`);
  return after;
}
