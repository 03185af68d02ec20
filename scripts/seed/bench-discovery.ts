/**
 * `npm run bench:discovery [-- --markets 10000]`: latency of the /discover/markets queries over a large catalog
 * (PGlite in memory, or Postgres with DATABASE_URL in a throwaway schema). Markets and trades are generated in SQL;
 * each measured query runs 30 times after 3 warm-ups. Prints one JSON object per line.
 */
import { parseArgs } from "node:util";
import { openTestDatabase } from "../../test/support/db";
import { listMarkets, type MarketListQuery } from "../../api/domain/markets/list-query";
import { getMarket } from "../../api/domain/markets/catalog-store";
import { configureCatalogCache } from "../../api/domain/markets/catalog-cache";

const NOW = 1_800_000_000_000;
const WORDS = [
  "Bitcoin",
  "Ethereum",
  "election",
  "Senate",
  "inflation",
  "rain",
  "championship",
  "model",
  "launch",
  "merger",
  "record",
  "Pennsylvania",
  "Ontario",
  "tariff",
  "eclipse",
];

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { markets: { type: "string", default: "10000" }, help: { type: "boolean", short: "h" } } });
  if (values.help) {
    console.log("usage: npm run bench:discovery [-- --markets 10000]");
    return;
  }
  const markets = Number(values.markets);
  const db = await openTestDatabase();
  // This bench measures the SQL behind discovery; bench:api measures the cached reads the API serves.
  configureCatalogCache(db, { ttlMs: 0 });
  try {
    const t0 = performance.now();
    await db.query(
      `INSERT INTO markets (chain_id, address, market_id, settlement, pricing_model, title, description, category, outcomes, creator, open_time, close_time,
         creator_resolve_by, taker_fee_bps, fee_policy_version, sell_exit_fee_bps, winnings_exit_fee_bps, tick_size_bps, min_size, resolution_source,
         last_prices, external_id, created_at)
       SELECT 8453, '0x' || lpad(to_hex(i), 40, '0'), i, 'committed', CASE WHEN i % 3 = 0 THEN 'automated' ELSE 'ORDERBOOK' END,
         'Will ' || ($2::text[])[1 + i % 15] || ' ' || ($2::text[])[1 + (i / 15) % 15] || ' happen by week ' || i || '?', 'Generated market ' || i,
         (ARRAY['CRYPTO','POLITICS','SPORTS','ECONOMY','AI'])[1 + i % 5], '["Yes","No"]'::jsonb, '0x' || lpad(to_hex(i % 50), 40, '0'),
         $1, $1 + (i % 400) * 86400000::bigint + 86400000, $1 + (i % 400) * 86400000::bigint + 86400000 + 172800000, 100, 'notional-v1', 0, 0, 1, 1000000,
         '{"type":"creator"}'::jsonb, '[500000,500000]'::jsonb, 'bench:' || i, $1 - i * 1000::bigint
       FROM generate_series(1, $3::integer) AS i`,
      [NOW, WORDS, markets],
    );
    await db.query(
      `INSERT INTO market_trades (market_pk, outcome, price_ppm, size, notional, at)
       SELECT 1 + (j * 7919) % $2::integer, 0, 100000 + (j * 37) % 800000, 1000000, 500000, $1 - (j % 172800) * 1000::bigint
       FROM generate_series(1, $2::integer * 5) AS j`,
      [NOW, markets],
    );
    await db.exec("ANALYZE markets; ANALYZE market_trades;");
    console.log(JSON.stringify({ bench: "discovery-setup", storage: db.kind, markets, trades: markets * 5, ms: Math.round(performance.now() - t0) }));
    const cases: [string, () => Promise<unknown>][] = [];
    const q = (name: string, query: Partial<MarketListQuery>) => cases.push([name, () => listMarkets(db, { pageSize: 20, sort: "new", ...query }, NOW)]);
    q("list-new", {});
    const page = await listMarkets(db, { pageSize: 20, sort: "new" }, NOW);
    const deep = await listMarkets(
      db,
      { pageSize: 100, sort: "new", cursor: { createdAt: NOW - Math.floor(markets / 2) * 1000, id: String(Math.floor(markets / 2)) } },
      NOW,
    );
    q("list-new-cursor-page2", { cursor: page.next ?? undefined });
    q("list-new-cursor-deep", { cursor: deep.next ?? undefined });
    q("list-category", { category: "AI" });
    q("list-volume_24h", { sort: "volume_24h" });
    q("list-closing_soon", { sort: "closing_soon" });
    q("search-substring", { search: "pennsylvania" });
    q("search-typo", { search: "Pensylvania" });
    q("search-no-match", { search: "quasar" });
    cases.push(["detail", () => getMarket(db, 8453, "0x" + (123).toString(16).padStart(40, "0"), NOW)]);
    for (const [name, run] of cases) {
      for (let i = 0; i < 3; i++) await run();
      const times: number[] = [];
      for (let i = 0; i < 30; i++) {
        const s = performance.now();
        await run();
        times.push(performance.now() - s);
      }
      times.sort((a, b) => a - b);
      console.log(JSON.stringify({ bench: "discovery", storage: db.kind, markets, query: name, p50Ms: +times[15].toFixed(2), p95Ms: +times[28].toFixed(2) }));
    }
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
