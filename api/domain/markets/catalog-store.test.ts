import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { openTestDatabase } from "../../../test/support/db";
import type { Database } from "../../../relayer/db/client";
import { getMarket, insertCatalogMarket, setMarketState } from "./catalog-store";
import { chartFrames, recentTrades, recordTrade } from "./trade-store";
import { decodeCursor, encodeCursor } from "./cursor";
import { upsertOnchainMarket } from "./onchain-listing";

const T0 = 1_800_000_000_000;
const DAY = 86_400_000;

describe("catalog store", () => {
  let db: Database;
  let binary: string;
  let ternary: string;
  before(async () => {
    db = await openTestDatabase();
    const base = {
      chainId: 8453,
      settlement: "committed" as const,
      creator: "0x00000000000000000000000000000000000000AA",
      openTime: T0,
      closeTime: T0 + DAY,
      resolutionSource: { type: "creator" },
      createdAt: T0,
    };
    binary = (
      await insertCatalogMarket(db, {
        ...base,
        pricingModel: "ORDERBOOK",
        title: "Binary book market",
        category: "OTHER",
        outcomes: ["Yes", "No"],
        externalId: "s:bin",
      })
    ).market.address;
    ternary = (
      await insertCatalogMarket(db, {
        ...base,
        pricingModel: "automated",
        title: "Three-way LMSR market",
        category: "OTHER",
        outcomes: ["A", "B", "C"],
        lmsrSeed: 1_000_000n,
      })
    ).market.address;
  });
  after(async () => {
    await db.close();
  });

  it("stamps defaults, uniform LMSR opening prices, and refuses malformed markets", async () => {
    const t = await getMarket(db, 8453, ternary, T0);
    assert.deepEqual(t?.lastPricesPpm, [333333, 333333, 333333]);
    assert.equal(t?.sellExitFeeBps, 100);
    assert.equal(t?.creator, "0x00000000000000000000000000000000000000aa");
    const b = await getMarket(db, 8453, binary, T0);
    assert.deepEqual(b?.lastPricesPpm, [null, null]);
    assert.equal(b?.takerFeeBps, 100);
    await assert.rejects(
      insertCatalogMarket(db, {
        chainId: 8453,
        settlement: "committed",
        pricingModel: "ORDERBOOK",
        title: "Three-way book",
        category: "OTHER",
        outcomes: ["A", "B", "C"],
        creator: "0x00000000000000000000000000000000000000aa",
        openTime: T0,
        closeTime: T0 + DAY,
        resolutionSource: {},
        createdAt: T0,
      }),
      /binary/,
    );
    await assert.rejects(
      insertCatalogMarket(db, {
        chainId: 8453,
        settlement: "onchain",
        pricingModel: "automated",
        title: "No address",
        category: "OTHER",
        outcomes: ["A", "B"],
        creator: "0x00000000000000000000000000000000000000aa",
        openTime: T0,
        closeTime: T0 + DAY,
        resolutionSource: {},
        createdAt: T0,
      }),
      /address/,
    );
  });

  it("records trades: complement price on binary markets, an older trade does not move the last price", async () => {
    await recordTrade(db, binary, { priceBps: 6000, size: 2_000_000n, at: T0 + 120_000 });
    await recordTrade(db, binary, { outcome: 1, priceBps: 3500, size: 1_000_000n, at: T0 + 60_000 });
    const m = await getMarket(db, 8453, binary, T0 + 200_000);
    assert.deepEqual(m?.lastPricesPpm, [600_000, 400_000]);
    assert.equal(m?.volumeTotal, 1_200_000n + 350_000n);
    assert.equal(m?.volume24h, 1_550_000n);
    assert.equal(m?.tradeCount, 2);
    assert.deepEqual(
      (await recentTrades(db, m!.pk, 10)).map((t) => t.at),
      [T0 + 120_000, T0 + 60_000],
    );
    const frames = await chartFrames(db, m!.pk, "1H", T0 + 200_000);
    assert.deepEqual(
      frames.filter((f) => f.outcome === 0).map((f) => [f.start, f.closePpm]),
      [
        [T0 + 60_000, 650_000],
        [T0 + 120_000, 600_000],
      ],
    );
    await recordTrade(db, ternary, { outcome: 2, probability: 0.5, size: 1_000_000n, notional: 480_000n, at: T0 });
    assert.deepEqual((await getMarket(db, 8453, ternary, T0))?.lastPricesPpm, [333333, 333333, 500_000]);
    await assert.rejects(recordTrade(db, binary, { priceBps: 0, size: 1n, at: T0 }), /priceBps/);
    await assert.rejects(recordTrade(db, binary, { priceBps: 10, probability: 0.1, size: 1n, at: T0 }), /exactly one/);
    await assert.rejects(recordTrade(db, ternary, { outcome: 3, probability: 0.1, size: 1n, at: T0 }), /outcome/);
    await assert.rejects(recordTrade(db, "0x0000000000000000000000000000000000000001", { priceBps: 10, size: 1n, at: T0 }), /no market/);
    assert.equal((await getMarket(db, 8453, binary, T0))?.tradeCount, 2, "a refused trade changes nothing");
  });

  it("moves state only along the graph and stamps the stage deadlines", async () => {
    await assert.rejects(setMarketState(db, 8453, ternary, { state: "resolved" }, T0), /not a transition/);
    const closed = await setMarketState(db, 8453, ternary, { state: "creator_proposal", challengeBy: T0 + 3 * DAY }, T0 + 2 * DAY);
    assert.equal(closed.state, "creator_proposal");
    assert.equal(closed.challengeBy, T0 + 3 * DAY);
    const done = await setMarketState(db, 8453, ternary, { state: "resolved", resolvedOutcome: 2 }, T0 + 3 * DAY);
    assert.equal(done.resolvedAt, T0 + 3 * DAY);
    await assert.rejects(setMarketState(db, 8453, ternary, { state: "open" }, T0 + 4 * DAY), /not a transition/);
  });

  it("round-trips the cursor and refuses forged ones", () => {
    assert.deepEqual(decodeCursor(encodeCursor({ createdAt: T0, id: "42" })), { createdAt: T0, id: "42" });
    for (const bad of ["", "!!", Buffer.from('[1,"x"]').toString("base64url"), Buffer.from('[1.5,"1"]').toString("base64url")])
      assert.throws(() => decodeCursor(bad), /cursor/);
  });
});

describe("on-chain listings", () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it("lists an on-chain market once and refreshes its lifecycle from the chain", async () => {
    const listing = {
      chainId: 8453,
      address: "0x00000000000000000000000000000000000BEEF0",
      pricingModel: "automated" as const,
      title: "On-chain LMSR market",
      category: "CRYPTO",
      outcomes: ["Yes", "No"],
      creator: "0x00000000000000000000000000000000000000aa",
      openTime: T0,
      closeTime: T0 + DAY,
      resolutionSource: { type: "creator" },
      collateral: { symbol: "USDC", decimals: 6, token: "0x0000000000000000000000000000000000000006" },
      sellExitFeeBps: 50,
      lmsrSeed: 10_000_000n,
      createdAt: T0,
    };
    const first = await upsertOnchainMarket(db, listing);
    assert.equal(first.settlement, "onchain");
    assert.equal(first.marketId, null);
    assert.equal(first.address, listing.address.toLowerCase());
    const moved = await upsertOnchainMarket(db, {
      ...listing,
      sellExitFeeBps: 999,
      state: "resolved",
      resolvedAt: T0 + 2 * DAY,
      resolvedOutcome: 1,
      createdAt: T0 + 2 * DAY,
    });
    assert.equal(moved.pk, first.pk);
    assert.equal(moved.state, "resolved");
    assert.equal(moved.resolvedOutcome, 1);
    assert.equal(moved.sellExitFeeBps, 50, "stamped rules never change");
    const n = await db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM markets`);
    assert.equal(Number(n[0].n), 1);
  });
});
