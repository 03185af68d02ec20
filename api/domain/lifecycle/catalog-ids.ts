/** Catalog markets by engine market id (the read models of the journal join its market ids to addresses). */
import type { SqlRunner } from "../../../relayer/db/client";
import { MARKET_COLUMNS, marketFromRow } from "../markets/catalog-store";
import type { CatalogMarket } from "../markets/catalog-types";

export async function catalogByMarketIds(db: SqlRunner, chainId: number, ids: readonly bigint[], now: number): Promise<Map<bigint, CatalogMarket>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query(`SELECT ${MARKET_COLUMNS} FROM markets m WHERE m.chain_id = $2 AND m.market_id = ANY($3::bigint[])`, [
    now,
    chainId,
    ids.map(String),
  ]);
  const out = new Map<bigint, CatalogMarket>();
  for (const r of rows) {
    const m = marketFromRow(r);
    if (m.marketId !== null) out.set(m.marketId, m);
  }
  return out;
}

/** Catalog addresses by engine market id (as decimal strings), for reads that name a market and need nothing else. */
export async function catalogAddressesOf(db: SqlRunner, chainId: number, ids: readonly bigint[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ market_id: string; address: string }>(
    `SELECT market_id::text AS market_id, address FROM markets WHERE chain_id = $1 AND market_id = ANY($2::bigint[])`,
    [chainId, [...new Set(ids.map(String))]],
  );
  return new Map(rows.map((r) => [r.market_id, r.address]));
}
