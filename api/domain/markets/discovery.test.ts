import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { rmSync, writeFileSync } from "node:fs";
import type { RunningService } from "../../service";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { manualClock } from "../../../relayer/clock";
import { poolAccountOf } from "../../../decoder/assets";
import { deploymentFile } from "../protocol/deployment";
import { RULES_VERSION } from "../protocol/rules";
import { demoMarkets } from "./seed/demo-markets";
import { importPolymarketJson } from "./seed/polymarket-import";
import { seedCatalog } from "./seed/seed-catalog";
import { insertCatalogMarket, setMarketState } from "./catalog-store";
import { recordTrade } from "./trade-store";
import { withCatalogFallback } from "./data-source";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createAgent } from "../auth/agents";
import { issueKey } from "../auth/api-keys";

const T0 = 1_800_000_000_000;
const DAY = 86_400_000;
const CHAIN = 990_000 + Math.floor(Math.random() * 9_000);
const cond = (b: string) => "0x" + b.repeat(32);
const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe(`discovery reads over real HTTP (${process.env.DATABASE_URL ? "Postgres" : "PGlite"})`, () => {
  let svc: RunningService;
  let t: TestService | undefined;
  const clock = manualClock(T0);
  const depFile = deploymentFile(CHAIN);
  const addr: Record<string, string> = {};

  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${svc.baseUrl}${path}`);
    return { status: res.status, body: (await res.json()) as Json };
  };
  const list = async (qs: string): Promise<Json[]> => {
    const r = await get(`/discover/markets?${qs}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.markets as Json[];
  };
  const ids = (rows: Json[]) => rows.map((m) => m.externalId as string);

  before(async () => {
    writeFileSync(
      depFile,
      JSON.stringify({
        chainId: CHAIN,
        contracts: {
          CommittedLedger: { address: a(1), blockNumber: 1 },
          PlayMoney: { address: a(2), blockNumber: 2 },
          OutcomeToken: { address: a(3), blockNumber: 3 },
          BinaryFactory: { address: a(4), blockNumber: 4 },
          TernaryFactory: { address: a(5), blockNumber: 5 },
        },
        collaterals: [{ symbol: "USDC", token: a(6), decimals: 6, router: a(7) }],
        routerInterface: null,
      }),
    );
    t = await startTestService({ CHAIN_ID: String(CHAIN), SEED_DEMO_MARKETS: "false" }, { clock });
    svc = t.svc;
    const db = svc.ctx.db;
    // Six demo markets at the same instant: the cursor must break the tie by row id.
    const demo = await seedCatalog(db, clock, demoMarkets(T0), { chainId: CHAIN });
    for (const s of demo) addr[s.spec.externalId] = s.address;
    clock.advance(1000);
    const imported = importPolymarketJson([
      {
        conditionId: cond("1f"),
        question: "Will it rain in Paris tomorrow?",
        endDate: new Date(T0 + 5 * DAY).toISOString(),
        outcomes: '["Yes","No"]',
        clobTokenIds: '["123","456"]',
        category: "Weather",
      },
      {
        conditionId: cond("2e"),
        question: "Who wins the three-way derby?",
        endDate: new Date(T0 + 9 * DAY).toISOString(),
        outcomes: ["Home", "Draw", "Away"],
        category: "Sports",
      },
    ]);
    for (const s of await seedCatalog(db, clock, imported.markets, { chainId: CHAIN, creator: a(0xc0) })) addr[s.spec.externalId] = s.address;
    clock.advance(1000);
    const base = {
      chainId: CHAIN,
      settlement: "committed" as const,
      pricingModel: "ORDERBOOK" as const,
      outcomes: ["Yes", "No"],
      creator: a(0xc1),
      openTime: T0,
      resolutionSource: { type: "creator", note: "x" },
    };
    const pa = await insertCatalogMarket(db, {
      ...base,
      title: "Will the Democrat win the Pennsylvania Senate race?",
      category: "ELECTIONS",
      closeTime: T0 + 50 * DAY,
      election: { region: "US", place: "US-PA", office: "senate" },
      externalId: "t:pa-senate",
      createdAt: clock.now(),
    });
    addr["t:pa-senate"] = pa.market.address;
    clock.advance(1000);
    const on = await insertCatalogMarket(db, {
      ...base,
      title: "Will the Liberals win Ontario's next provincial election?",
      category: "ELECTIONS",
      closeTime: T0 + 70 * DAY,
      election: { region: "CA", place: "CA-ON", office: "provincial_legislature" },
      externalId: "t:on-prov",
      createdAt: clock.now(),
    });
    addr["t:on-prov"] = on.market.address;
    clock.advance(1000);
    const onchain = await insertCatalogMarket(db, {
      ...base,
      settlement: "onchain",
      address: a(0xbeef),
      pricingModel: "automated",
      title: "Will Solana flip Ethereum by market cap in 2027?",
      category: "CRYPTO",
      closeTime: T0 + 80 * DAY,
      externalId: "t:onchain-sol",
      lmsrSeed: 5_000_000n,
      collateral: { symbol: "USDC", decimals: 6, token: a(6) },
      createdAt: clock.now(),
    });
    addr["t:onchain-sol"] = onchain.market.address;
    clock.advance(1000);
    // One resolved and one void market: out of the default list.
    const done = await insertCatalogMarket(db, {
      ...base,
      title: "Did the 2026 eclipse happen on schedule?",
      category: "SCIENCE_HEALTH",
      openTime: T0 - 10 * DAY,
      closeTime: T0 - DAY,
      externalId: "t:resolved",
      createdAt: clock.now(),
    });
    addr["t:resolved"] = done.market.address;
    await setMarketState(db, CHAIN, done.market.address, { state: "creator_proposal", challengeBy: clock.now() + DAY }, clock.now());
    await setMarketState(db, CHAIN, done.market.address, { state: "resolved", resolvedOutcome: 0 }, clock.now());
    clock.advance(1000);
    const gone = await insertCatalogMarket(db, {
      ...base,
      title: "Cancelled market about a postponed match",
      category: "SPORTS",
      closeTime: T0 + DAY,
      externalId: "t:void",
      createdAt: clock.now(),
    });
    addr["t:void"] = gone.market.address;
    await setMarketState(db, CHAIN, gone.market.address, { state: "void" }, clock.now());
    clock.advance(1000);
    // Trades: fed-cut busiest in 24 h, btc second; an old trade on arctic counts in total volume only.
    await recordTrade(db, addr["demo:fed-cut-2027-01"], { priceBps: 4200, size: 50_000_000n, at: clock.now() - 90_000 });
    await recordTrade(db, addr["demo:fed-cut-2027-01"], { priceBps: 4400, size: 50_000_000n, at: clock.now() - 10_000, takerSide: "buy" });
    await recordTrade(db, addr["demo:btc-150k-2027q1"], { priceBps: 3000, size: 10_000_000n, at: clock.now() - 5_000 });
    await recordTrade(db, addr["demo:arctic-sea-ice-2027"], { probability: 0.6, size: 900_000_000n, at: clock.now() - 3 * DAY });
  });

  after(async () => {
    if (t) await stopTestService(t);
    rmSync(depFile, { force: true });
  });

  it("lists active markets newest first, leaving resolved and void out; pageSize is bounded", async () => {
    const rows = await list("pageSize=100");
    assert.equal(rows.length, 11);
    assert.ok(!ids(rows).includes("t:resolved") && !ids(rows).includes("t:void"));
    assert.equal(rows[0].externalId, "t:onchain-sol");
    for (let i = 1; i < rows.length; i++) assert.ok(Date.parse(rows[i - 1].createdAt) >= Date.parse(rows[i].createdAt));
    assert.equal((await list("")).length, 11);
    for (const bad of ["pageSize=0", "pageSize=101", "pageSize=x"]) {
      const r = await get(`/discover/markets?${bad}`);
      assert.equal(r.status, 400);
      assert.equal(r.body.field, "pageSize");
    }
  });

  it("pages with the keyset cursor without duplicates or gaps, even across equal createdAt", async () => {
    const all = ids(await list("pageSize=100"));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await get(`/discover/markets?pageSize=4${cursor ? `&cursor=${cursor}` : ""}`);
      assert.equal(r.status, 200);
      seen.push(...ids(r.body.markets));
      cursor = r.body.nextCursor;
      if (cursor) assert.match(cursor, /^[A-Za-z0-9_-]+$/);
      pages++;
    } while (cursor && pages < 10);
    assert.deepEqual(seen, all);
    assert.equal(pages, 3);
    const withSort = await get(`/discover/markets?sort=volume_24h&cursor=${Buffer.from('[1,"1"]').toString("base64url")}`);
    assert.equal(withSort.status, 400);
    assert.equal(withSort.body.field, "cursor");
    const garbage = await get(`/discover/markets?cursor=bm90LWEtY3Vyc29y`);
    assert.equal(garbage.status, 400);
    assert.equal(garbage.body.field, "cursor");
  });

  it("filters by category, state, chain, address, creator, pricing model", async () => {
    assert.deepEqual(ids(await list("category=ELECTIONS")).sort(), ["t:on-prov", "t:pa-senate"]);
    assert.deepEqual(ids(await list("category=NEVER_SEEN")), []);
    assert.deepEqual(ids(await list("marketState=resolved")), ["t:resolved"]);
    assert.deepEqual(ids(await list("marketState=void")), ["t:void"]);
    assert.equal((await list("marketState=open&pageSize=100")).length, 11);
    assert.equal((await list(`chainId=${CHAIN}&pageSize=100`)).length, 11);
    assert.equal((await list("chainId=1")).length, 0);
    assert.deepEqual(ids(await list(`address=${addr["demo:fed-cut-2027-01"].toUpperCase().replace("0X", "0x")}`)), ["demo:fed-cut-2027-01"]);
    assert.deepEqual(ids(await list(`creator=${a(0xc0)}`)).sort(), [`polymarket:${cond("1f")}`, `polymarket:${cond("2e")}`]);
    const ob = await list("pricingModel=ORDERBOOK&pageSize=100");
    assert.ok(ob.length >= 5 && ob.every((m) => m.pricingModel === "ORDERBOOK"));
    const amm = await list("pricingModel=automated&pageSize=100");
    assert.deepEqual(
      ids(amm).sort(),
      ["demo:arctic-sea-ice-2027", "demo:eth-etf-flows-dec", "demo:world-cup-2026-final-goals", `polymarket:${cond("2e")}`, "t:onchain-sol"].sort(),
    );
    assert.ok(amm.every((m) => m.pricingModel === "automated"));
    const bad = await get("/discover/markets?marketState=sleeping");
    assert.equal(bad.status, 400);
    assert.equal(bad.body.field, "marketState");
  });

  it("filters by source condition and token id, tagging the row with sourceToken.side", async () => {
    const byCond = await list(`sourceConditionId=${cond("1F")}`);
    assert.deepEqual(ids(byCond), [`polymarket:${cond("1f")}`]);
    assert.deepEqual(byCond[0].resolutionSource, { type: "polymarket", conditionId: cond("1f") });
    assert.equal(byCond[0].sourceToken, undefined);
    const byToken = await list("sourceTokenId=456");
    assert.equal(byToken.length, 1);
    assert.deepEqual(byToken[0].sourceToken, { tokenId: "456", outcomeIndex: 1, side: "NO" });
    assert.equal((await list("sourceTokenId=45")).length, 0);
    assert.equal((await get("/discover/markets?sourceTokenId=12a")).body.field, "sourceTokenId");
    assert.equal((await get("/discover/markets?sourceConditionId=0x12")).body.field, "sourceConditionId");
  });

  it("filters by election region, place and office", async () => {
    assert.deepEqual(ids(await list("electionRegion=US")), ["t:pa-senate"]);
    assert.deepEqual(ids(await list("electionRegion=CA&electionOffice=provincial_legislature")), ["t:on-prov"]);
    assert.deepEqual(ids(await list("electionPlace=US-PA")), ["t:pa-senate"]);
    assert.deepEqual(ids(await list("electionOffice=mayor")), []);
    assert.equal((await get("/discover/markets?electionPlace=pa")).body.field, "electionPlace");
    assert.equal((await get("/discover/markets?electionRegion=EU")).body.field, "electionRegion");
  });

  it("searches by case-insensitive substring and by a misspelt word (trigram)", async () => {
    assert.deepEqual(ids(await list("search=BITCOIN")), ["demo:btc-150k-2027q1"]);
    assert.deepEqual(ids(await list("search=lmarena")), ["demo:open-model-frontier-2027"], "substring of the title");
    assert.deepEqual(ids(await list("search=NSIDC")), ["demo:arctic-sea-ice-2027"], "substring of the description");
    assert.deepEqual(ids(await list("search=bitcon")), ["demo:btc-150k-2027q1"], "typo");
    assert.deepEqual(ids(await list("search=Pensylvania")), ["t:pa-senate"], "typo");
    assert.deepEqual(ids(await list("search=100%25")), [], "% is literal");
    assert.deepEqual(ids(await list("search=zzqqxx")), []);
    assert.equal((await get("/discover/markets?search=a")).body.field, "search");
    assert.equal((await get(`/discover/markets?search=${"a".repeat(201)}`)).body.field, "search");
  });

  it("sorts by 24 h volume, closing soon and newest resolution", async () => {
    const vol = await list("sort=volume_24h&pageSize=3");
    assert.deepEqual(ids(vol).slice(0, 2), ["demo:fed-cut-2027-01", "demo:btc-150k-2027q1"]);
    assert.equal(vol[0].volume24h, "43000000");
    const arctic = (await list("search=Arctic"))[0];
    assert.equal(arctic.volume24h, "0");
    assert.equal(arctic.volumeTotal, "540000000");
    const soon = await list("sort=closing_soon&pageSize=100");
    assert.equal(soon[0].externalId, `polymarket:${cond("1f")}`);
    for (let i = 1; i < soon.length; i++) assert.ok(Date.parse(soon[i - 1].closeTime) <= Date.parse(soon[i].closeTime));
    assert.ok(soon.every((m) => Date.parse(m.closeTime) > clock.now()));
    assert.deepEqual(ids(await list("sort=resolved_newest")), ["t:resolved"]);
    assert.equal((await get("/discover/markets?sort=hot")).body.field, "sort");
  });

  it("rejects an unknown query property with a 400 naming it", async () => {
    const r = await get("/discover/markets?pageSize=5&colour=blue");
    assert.equal(r.status, 400);
    assert.equal(r.body.code, "INVALID_PAYLOAD");
    assert.equal(r.body.field, "colour");
    assert.match(r.body.detail, /colour/);
    assert.equal((await get(`/discover/markets/${addr["t:pa-senate"]}?limit=3`)).body.field, "limit");
  });

  it("serves market detail with trading rules, every deadline, pricing model and settlement lane", async () => {
    const r = await get(`/discover/markets/${addr["demo:fed-cut-2027-01"]}?chainId=${CHAIN}`);
    assert.equal(r.status, 200);
    const m = r.body;
    assert.equal(m.address, poolAccountOf(BigInt(m.marketId)).toLowerCase());
    assert.equal(m.settlement, "committed");
    assert.equal(m.pricingModel, "ORDERBOOK");
    assert.equal(m.tradingRules.takerFeeBps, 150);
    assert.equal(m.tradingRules.feePolicyVersion, "shares-v2");
    assert.equal(m.tradingRules.minPriceBps, 1);
    assert.equal(m.tradingRules.maxPriceBps, 9999);
    assert.equal(m.closeTime, new Date(T0 + 60 * DAY).toISOString());
    assert.equal(m.creatorResolveBy, new Date(T0 + 60 * DAY + 48 * 3600_000).toISOString());
    assert.equal(m.nextActionDeadline, m.closeTime);
    assert.deepEqual([m.challengeBy, m.humanVote.endsAt, m.councilReviewEndsAt], [null, null, null]);
    assert.deepEqual(
      m.outcomes.map((o: Json) => o.probability),
      [0.44, 0.56],
    );
    assert.equal(m.tradeCount, 2);
    const amm = (await get(`/discover/markets/${addr["demo:world-cup-2026-final-goals"]}`)).body;
    assert.equal(amm.tradingRules.lmsrSeed, "1500000000");
    assert.equal(amm.tradingRules.sellExitFeeBps, 100);
    assert.equal(amm.outcomes.length, 2, "the committed ledger is binary");
    const onchain = (await get(`/discover/markets/${addr["t:onchain-sol"]}`)).body;
    assert.equal(onchain.settlement, "onchain");
    assert.equal(onchain.marketId, null);
    assert.equal(onchain.collateral.symbol, "USDC");
    const resolved = (await get(`/discover/markets/${addr["t:resolved"]}`)).body;
    assert.equal(resolved.state, "resolved");
    assert.equal(resolved.nextActionDeadline, null);
    assert.equal(resolved.resolvedOutcome, 0);
    assert.ok(resolved.challengeBy);
    const missing = await get(`/discover/markets/${a(0xdead)}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, "MARKET_NOT_FOUND");
    assert.equal((await get(`/discover/markets/${addr["t:pa-senate"]}?chainId=1`)).status, 404);
    assert.equal((await get("/discover/markets/0x123")).status, 400);
  });

  it("reads a market past closeTime as closed, with creatorResolveBy as its next deadline", async () => {
    const rain = addr[`polymarket:${cond("1f")}`];
    clock.advance(6 * DAY);
    try {
      const m = (await get(`/discover/markets/${rain}`)).body;
      assert.equal(m.state, "closed");
      assert.equal(m.nextActionDeadline, m.creatorResolveBy);
      assert.deepEqual(ids(await list("marketState=closed")), [`polymarket:${cond("1f")}`]);
    } finally {
      clock.advance(-6 * DAY);
    }
  });

  it("echoes batch trading rules in request order, marking unknown addresses", async () => {
    const req = [addr["demo:eth-etf-flows-dec"], a(0xdead), addr["demo:btc-150k-2027q1"].toUpperCase().replace("0X", "0x"), addr["demo:eth-etf-flows-dec"]];
    const res = await fetch(`${svc.baseUrl}/discover/markets/batch-trading-rules`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chainId: CHAIN, marketAddresses: req }),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as Json;
    assert.deepEqual(
      body.results.map((r: Json) => r.marketAddress),
      req,
    );
    assert.deepEqual(
      body.results.map((r: Json) => r.found),
      [true, false, true, true],
    );
    assert.equal(body.results[1].code, "MARKET_NOT_FOUND");
    assert.equal(body.results[0].tradingRules.pricingModel, "automated");
    assert.equal(body.results[2].tradingRules.takerFeeBps, 100);
    for (const bad of [[], Array.from({ length: 201 }, () => a(1))]) {
      const r = await fetch(`${svc.baseUrl}/discover/markets/batch-trading-rules`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ chainId: CHAIN, marketAddresses: bad }),
      });
      assert.equal(r.status, 400);
      assert.equal(((await r.json()) as Json).field, "marketAddresses");
    }
  });

  it("answers exists only for a calling agent (its own markets: test/e2e/market-creation.e2e.test.ts)", async () => {
    const anonymous = await get(`/discover/markets/exists?externalId=${encodeURIComponent("demo:fed-cut-2027-01")}`);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.code, "AUTH_REQUIRED");
  });

  it("lists related markets of the same category and chain", async () => {
    const r = await get(`/discover/markets/${addr["t:pa-senate"]}/related?chainId=${CHAIN}`);
    assert.equal(r.status, 200);
    assert.deepEqual(ids(r.body.markets), ["t:on-prov"]);
    const crypto = await get(`/discover/markets/${addr["t:onchain-sol"]}/related?chainId=${CHAIN}&limit=1`);
    assert.deepEqual(ids(crypto.body.markets), ["demo:btc-150k-2027q1"]);
    assert.equal((await get(`/discover/markets/${addr["t:pa-senate"]}/related`)).body.field, "chainId");
    assert.equal((await get(`/discover/markets/${addr["t:pa-senate"]}/related?chainId=${CHAIN}&limit=21`)).body.field, "limit");
  });

  it("serves trades and chart from the catalog, depth from the lane's plugged-in source", async () => {
    const fed = addr["demo:fed-cut-2027-01"];
    const trades = (await get(`/discover/markets/${fed}/trades?limit=1`)).body;
    assert.equal(trades.trades.length, 1);
    assert.equal(trades.trades[0].priceBps, "4400");
    assert.equal(trades.trades[0].side, "YES");
    assert.equal(trades.trades[0].takerSide, "buy");
    const chart = (await get(`/discover/markets/${fed}/chart?window=1H`)).body;
    assert.equal(chart.stepMs, 60_000);
    const yes = chart.frames.filter((f: Json) => f.outcome === 0);
    assert.equal(yes.length, 2);
    assert.deepEqual(
      yes.map((f: Json) => f.close),
      [0.42, 0.44],
    );
    assert.deepEqual(chart.latest.probabilities, [0.44, 0.56]);
    const all = (await get(`/discover/markets/${fed}/chart`)).body;
    assert.equal(all.frames.filter((f: Json) => f.outcome === 0).length, 1);
    assert.equal(all.frames.find((f: Json) => f.outcome === 0).high, 0.44);
    const depth = (await get(`/discover/markets/${fed}/depth`)).body;
    assert.equal(depth.kind, "orderbook");
    assert.equal(depth.source, "engine", "the service's venue plugs the engine in for committed markets");
    const ammDepth = (await get(`/discover/markets/${addr["demo:world-cup-2026-final-goals"]}/depth`)).body;
    assert.equal(ammDepth.kind, "lmsr");
    assert.equal(ammDepth.outcomes.length, 2);
    svc.services.marketData.committed = withCatalogFallback(svc.ctx.db, () => clock.now(), {
      async depth(m, levels) {
        return {
          kind: "orderbook",
          address: m.address,
          chainId: m.chainId,
          levels,
          bids: [{ priceBps: "4300", size: "1000000" }],
          asks: [],
          asOf: new Date(clock.now()).toISOString(),
          source: "engine",
        };
      },
    });
    const live = (await get(`/discover/markets/${fed}/depth`)).body;
    assert.equal(live.source, "engine");
    assert.equal(live.levels, 5);
    assert.deepEqual(live.bids, [{ priceBps: "4300", size: "1000000" }]);
    assert.equal((await get(`/discover/markets/${addr["t:onchain-sol"]}/depth`)).body.source, "catalog");
    const holders = (await get(`/discover/markets/${fed}/holders`)).body;
    assert.equal(holders.outcomes.length, 2);
    assert.equal((await get(`/discover/markets/${a(0xdead)}/trades`)).status, 404);
  });

  it("serves the fee, rules, chain, collateral, contracts, token-release, state and renderer documents", async () => {
    // This deployment names factories on a chain nobody runs: the live read cannot answer, and says so (the live
    // values are tested against a real node in api/domain/creation).
    const fees = await get("/discover/fees");
    assert.equal(fees.status, 503);
    assert.equal(fees.body.code, "SERVICE_UNAVAILABLE");
    const rules = (await get("/discover/rules")).body;
    assert.equal(rules.rulesVersion, RULES_VERSION);
    assert.deepEqual(
      rules.resolution.humanVote.quorum.highExposureThresholds.map((t: Json) => t.collateralAddress),
      [a(2), a(6)],
    );
    assert.match(rules.resolution.humanVote.quorum.thresholdPolicyHash, /^0x[0-9a-f]{64}$/);
    const chains = (await get("/discover/chains")).body;
    assert.equal(chains.chains[0].chainId, CHAIN);
    assert.equal(chains.chains[0].rpc.recommendedReadStrategy, "pin-to-receipt-block");
    const coll = (await get("/discover/collateral")).body;
    assert.deepEqual(
      coll.tokens.map((t: Json) => [t.symbol, t.settlement]),
      [
        ["PM", "committed"],
        ["USDC", "onchain"],
      ],
    );
    assert.deepEqual((await get("/discover/collateral?chainId=1")).body, { tokens: [] });
    const contracts = (await get("/discover/contracts?collateral=USDC")).body;
    assert.equal(contracts.chains[0].collaterals[0].router, a(7));
    assert.equal(contracts.chains[0].factories.orderbook, null);
    assert.equal(contracts.chains[0].committedLedger, a(1));
    const release = (await get("/discover/token-release")).body;
    assert.equal(release.deployed, true);
    assert.equal(release.token.symbol, "PM");
    const states = (await get("/discover/market-states")).body;
    assert.equal(states.states.length, 9, "the spec's eight and creator_mia");
    assert.equal(states.market, undefined);
    const one = (await get(`/discover/market-states?marketAddress=${addr["demo:btc-150k-2027q1"]}`)).body;
    assert.equal(one.market.state, "open");
    assert.deepEqual(one.market.next.map((n: Json) => n.to).sort(), ["closed", "creator_proposal", "void"]);
    assert.equal((await get(`/discover/market-states?marketAddress=${a(0xdead)}`)).status, 404);
    assert.equal((await get("/discover/renderers")).body.renderers.length, 2);
    const cfg = (await get("/markets/config")).body;
    assert.deepEqual(
      cfg.collaterals.map((c: Json) => c.symbol),
      ["PM", "USDC"],
    );
    assert.equal((await get("/discover/fees?x=1")).body.field, "x");
  });

  it("serves the same reads as MCP tools", async () => {
    // The MCP endpoint authenticates every session (spec: the API key as bearer); a read-only key suffices.
    const agent = await createAgent(
      svc.ctx.db,
      { name: "discovery-reader", tier: "read-only", scopes: ["markets:read"], registrationPath: "admin" },
      clock.now(),
    );
    const { apiKey } = await issueKey(svc.ctx.db, agent, clock.now());
    const client = new Client({ name: "discovery-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(svc.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } }));
    try {
      const text = (r: unknown) => {
        const c = (r as CallToolResult).content[0];
        return c && c.type === "text" ? c.text : "";
      };
      const found = (await client.callTool({ name: "svc_list_markets", arguments: { search: "bitcon", pageSize: 5 } })) as CallToolResult;
      assert.ok(!found.isError, text(found));
      assert.deepEqual(ids((JSON.parse(text(found)) as Json).markets), ["demo:btc-150k-2027q1"]);
      const noAddress = (await client.callTool({ name: "svc_get_market_states", arguments: {} })) as CallToolResult;
      assert.equal(noAddress.isError, true);
      assert.match(text(noAddress), /marketAddress/);
      const withAddress = (await client.callTool({ name: "svc_get_market_states", arguments: { marketAddress: addr["t:pa-senate"] } })) as CallToolResult;
      assert.equal((JSON.parse(text(withAddress)) as Json).market.state, "open");
    } finally {
      await client.close();
    }
  });
});
