/** Catalog markets by engine market id (the resolution read models join the journal's market ids to addresses). */
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
