import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { openDatabase, type Database } from "../../../relayer/db/client";
import { migrateService } from "../../platform/db/migrations";
import { openTestDatabase } from "../../../test/support/db";
import { configureCatalogCache } from "./catalog-cache";
import { getMarket, getMarketByExternalId, insertCatalogMarket, setMarketState } from "./catalog-store";
import { listMarkets } from "./list-query";
import { recentTrades, recordTrade } from "./trade-store";

const T0 = 1_800_000_000_000;
const DAY = 86_400_000;
const base = {
  chainId: 8453,
  settlement: "committed" as const,
  pricingModel: "ORDERBOOK" as const,
  category: "OTHER",
  outcomes: ["Yes", "No"],
  creator: "0x00000000000000000000000000000000000000aa",
  openTime: T0,
  resolutionSource: { type: "creator" },
};

/** Counts the statements that read the markets table (a cache hit sends none). */
function countCatalogReads(db: Database): { n: number } {
  const counter = { n: 0 };
  const query = db.query.bind(db);
  db.query = (async (text: string, params?: unknown[]) => {
    if (/FROM markets m\b/.test(text)) counter.n++;
    return query(text, params);
  }) as Database["query"];
  return counter;
}

describe("catalog cache", () => {
  let db: Database;
  let reads: { n: number };
  let address: string;
  before(async () => {
    db = await openTestDatabase();
    configureCatalogCache(db, { ttlMs: 60_000 }); // only writes and the clock may end an entry in these tests
    reads = countCatalogReads(db);
    address = (await insertCatalogMarket(db, { ...base, title: "Cache me", closeTime: T0 + DAY, externalId: "c:1", createdAt: T0 })).market.address;
  });
  after(async () => {
    await db.close();
  });

  it("answers a repeated read from memory", async () => {
    const first = await getMarket(db, 8453, address, T0 + 1);
    const before = reads.n;
    const again = await getMarket(db, 8453, address.toUpperCase().replace("0X", "0x"), T0 + 2);
    assert.equal(reads.n, before, "no second statement");
    assert.deepEqual(again, first);
    await listMarkets(db, { pageSize: 20, sort: "new" }, T0 + 3);
    const n = reads.n;
    await listMarkets(db, { pageSize: 20, sort: "new" }, T0 + 4);
    assert.equal(reads.n, n);
  });

  it("shows a write made through this handle at once: insert, trade, state change", async () => {
    assert.equal((await listMarkets(db, { pageSize: 20, sort: "new" }, T0 + 10)).markets.length, 1);
    assert.equal(await getMarketByExternalId(db, base.creator, "c:2", T0 + 10), null);
    const second = await insertCatalogMarket(db, { ...base, title: "Listed later", closeTime: T0 + 2 * DAY, externalId: "c:2", createdAt: T0 + 10 });
    assert.equal((await listMarkets(db, { pageSize: 20, sort: "new" }, T0 + 11)).markets.length, 2);
    assert.equal((await getMarketByExternalId(db, base.creator, "c:2", T0 + 11))?.address, second.market.address);

    assert.equal((await getMarket(db, 8453, address, T0 + 12))?.tradeCount, 0);
    assert.deepEqual(await recentTrades(db, (await getMarket(db, 8453, address, T0 + 12))!.pk, 5, T0 + 12), []);
    await recordTrade(db, address, { priceBps: 6100, size: 1_000_000n, at: T0 + 12 });
    const traded = await getMarket(db, 8453, address, T0 + 13);
    assert.equal(traded?.tradeCount, 1);
    assert.equal(traded?.volume24h, 610_000n);
    assert.deepEqual(traded?.lastPricesPpm, [610_000, 390_000]);
    assert.equal((await recentTrades(db, traded!.pk, 5, T0 + 13)).length, 1);

    await setMarketState(db, 8453, second.market.address, { state: "void" }, T0 + 14);
    assert.equal((await getMarket(db, 8453, second.market.address, T0 + 15))?.state, "void");
    assert.equal((await listMarkets(db, { pageSize: 20, sort: "new" }, T0 + 15)).markets.length, 1, "void leaves the active list");
  });

  it("shows a write committed in a transaction once it committed", async () => {
    const inTx = await db.transaction((tx) =>
      insertCatalogMarket(tx, { ...base, title: "Listed in a transaction", closeTime: T0 + 3 * DAY, externalId: "c:3", createdAt: T0 + 20 }),
    );
    assert.equal((await getMarket(db, 8453, inTx.market.address, T0 + 21))?.title, "Listed in a transaction");
  });

  it("keeps the clock exact: open reads closed from closeTime on, volume leaves the 24 h window, and back", async () => {
    assert.equal((await getMarket(db, 8453, address, T0 + DAY - 1))?.state, "open");
    assert.equal((await getMarket(db, 8453, address, T0 + DAY))?.state, "closed");
    assert.equal(
      (await listMarkets(db, { pageSize: 20, sort: "closing_soon" }, T0 + DAY)).markets.some((m) => m.address === address),
      false,
    );
    assert.equal((await getMarket(db, 8453, address, T0 + 12 + DAY - 1))?.volume24h, 610_000n);
    assert.equal((await getMarket(db, 8453, address, T0 + 12 + DAY))?.volume24h, 0n);
    // A clock that moves back reads the past again.
    const back = await getMarket(db, 8453, address, T0 + 100);
    assert.equal(back?.state, "open");
    assert.equal(back?.volume24h, 610_000n);
  });
});

describe("catalog cache across handles of one database", () => {
  it("bounds what another handle's write leaves unseen by the TTL (here 0: always read through)", async () => {
    // Two PGlite handles cannot share files; two Postgres pools can. Run this part on Postgres only.
    const url = process.env.DATABASE_URL;
    if (!url) return;
    const schema = `t_cc_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
    const a = await openDatabase({ databaseUrl: url, schema });
    const b = await openDatabase({ databaseUrl: url, schema });
    try {
      await migrateService(a);
      configureCatalogCache(b, { ttlMs: 0 });
      assert.equal((await listMarkets(b, { pageSize: 5, sort: "new" }, T0)).markets.length, 0);
      await insertCatalogMarket(a, { ...base, title: "From the other instance", closeTime: T0 + DAY, createdAt: T0 });
      assert.equal((await listMarkets(b, { pageSize: 5, sort: "new" }, T0)).markets.length, 1);
    } finally {
      await a.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await Promise.all([a.close(), b.close()]);
    }
  });
});
