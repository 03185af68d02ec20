/**
 * GET /discover/leaderboard, GET /discover/traders/{address} and the reputation reads over real HTTP against startService: two agents trade
 * an order-book market, the board ranks them from the journal at the displayed prices, each one's profile agrees, a pinned generation pages the same figures while trading goes
 * on (and after a restart, rebuilt from the journal), calendar periods, and refusals.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { formatUnits } from "viem";
import { createLocalAgent } from "../../domain/auth/local-agents";
import { generationOf, uuidV7 } from "../../domain/ranking/generation-id";
import { apiClient, restartTestService, startTestService, stopTestService, type CallResult, type Json, type TestService } from "../../../test/support/service";

const SHARE = 1_000_000n;
const pm = (x: bigint) => formatUnits(x, 6);

describe("GET /discover/leaderboard", () => {
  let t: TestService;
  let A: ReturnType<typeof apiClient>;
  let B: ReturnType<typeof apiClient>;
  let anon: ReturnType<typeof apiClient>;
  let market: Json;
  let alice = "";
  let bob = "";
  let bobFee = 0n;
  let bobAgentId = "";

  const ok = (r: CallResult) => {
    assert.equal(r.status, 200, JSON.stringify(r.json));
    return r.json;
  };
  const problem = (r: CallResult, status: number, code: string) => {
    assert.equal(r.status, status, JSON.stringify(r.json));
    assert.equal(r.json.code, code, JSON.stringify(r.json));
  };
  const board = async (q = "") => ok(await anon("GET", `/discover/leaderboard${q}`));
  const row = (b: Json, address: string) => (b.traders as Json[]).find((r) => r.address === address);
  /** The catalog records a fill after its commit, off the request path: wait until the market shows `n` trades. */
  const tradesRecorded = async (n: number) => {
    for (let i = 0; i < 200; i++) {
      const trades = ok(await anon("GET", `/discover/markets/${market.address}/trades`)).trades as Json[];
      if (trades.length >= n) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail(`the catalog never showed ${n} trades`);
  };

  before(async () => {
    t = await startTestService({ PM_STARTING_GRANT: (1_000n * SHARE).toString(), LEADERBOARD_REFRESH_MS: "0" });
    const a = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "lb-alice" });
    const b = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "lb-bob" });
    bobAgentId = b.agentId;
    A = apiClient(t, a.apiKey);
    B = apiClient(t, b.apiKey);
    anon = apiClient(t);
    market = (ok(await A("GET", "/discover/markets?pricingModel=ORDERBOOK&pageSize=100")).markets as Json[])[0];
    alice = ok(await A("GET", "/orderbook/balances")).account;
    bob = ok(await B("GET", "/orderbook/balances")).account;
  });
  after(async () => stopTestService(t));

  it("is empty before any trade, and names its generation, period and method", async () => {
    const b = await board();
    assert.equal(b.board, "traders");
    assert.deepEqual([b.total, b.hasMore, b.traders], [0, false, []]);
    assert.equal(b.measurement.methodVersion, "committed-pm-trading-account-v2");
    assert.equal(b.measurement.markMethod, "displayed-market-price-v1");
    assert.deepEqual(b.measurement.unit, { symbol: "PM", decimals: 6, cashValue: false });
    assert.equal(b.measurement.scope, "committed_trading_account");
    // 7d: this calendar week from Monday 00:00 UTC (the test clock stands on Friday 2027-01-15 08:00 UTC).
    assert.deepEqual(b.measurement.period, { kind: "7d", start: "2027-01-11T00:00:00.000Z", end: new Date(t.clock.now()).toISOString() });
  });

  it("ranks both sides of a fill at the displayed price: P&L, volume and paging", async () => {
    ok(await A("POST", "/orderbook/place-order", { market: market.address, outcome: 0, side: "buy", priceBps: "4500", size: (10n * SHARE).toString() }));
    // Bob buys NO at 55 %: it mints against Alice's YES bid; the displayed prices become 45 % / 55 %.
    const filled = ok(
      await B("POST", "/orderbook/place-order", { market: market.address, outcome: 1, side: "buy", priceBps: "5500", size: (10n * SHARE).toString() }),
    );
    bobFee = BigInt((filled.orders as Json[])[0].fills[0].fee);
    assert.ok(bobFee > 0n, "the market charges a taker fee");
    await tradesRecorded(1);

    const byPnl = await board();
    assert.equal(byPnl.total, 2);
    // Alice paid 4.5 for 10 YES worth 4.5; Bob paid 5.5 and the fee for 10 NO worth 5.5.
    assert.deepEqual([row(byPnl, alice)?.pnl, row(byPnl, alice)?.volume], ["0", "4.5"]);
    assert.deepEqual([row(byPnl, bob)?.pnl, row(byPnl, bob)?.volume], [pm(-bobFee), "5.5"]);
    assert.deepEqual(
      (byPnl.traders as Json[]).map((r) => [r.rank, r.address]),
      [
        [1, alice],
        [2, bob],
      ],
    );
    assert.deepEqual(row(byPnl, bob)?.performance, { pnl: (-bobFee).toString(), return: row(byPnl, bob)?.returnPercent, volumeWei: "5500000" });
    assert.equal(row(byPnl, alice)?.returnPercent, "0");
    assert.deepEqual(row(byPnl, alice)?.unavailableReasons, ["ROI_NO_CLOSED_CALLS", "WIN_RATE_NO_SETTLED_MARKETS"]);

    const byVolume = await board("?sort=VOLUME");
    assert.deepEqual(
      (byVolume.traders as Json[]).map((r) => r.address),
      [bob, alice],
    );
    const second = await board("?sort=VOLUME&limit=1&offset=1");
    assert.deepEqual([second.total, second.hasMore, (second.traders as Json[]).map((r) => [r.rank, r.address])], [2, false, [[2, alice]]]);
    const first = await board("?sort=VOLUME&limit=1");
    assert.equal(first.hasMore, true);

    // Each account's profile: the same figures, its rank, and what it holds.
    const profile = ok(await anon("GET", `/discover/traders/${bob}`));
    assert.equal(profile.traded, true);
    assert.deepEqual(
      [profile.periods["7d"].rank, profile.periods["7d"].rankedAmong, profile.periods["7d"].pnl, profile.periods["7d"].volume],
      [2, 2, pm(-bobFee), "5.5"],
    );
    assert.equal(profile.measurement.generation, byVolume.measurement.generation);
    assert.deepEqual(profile.markets, [
      {
        market: market.address,
        category: market.category,
        pnl: pm(-bobFee),
        volume: "5.5",
        shares: ["0", (10n * SHARE).toString(), "0"],
        holding: true,
        ended: null,
        settled: false,
        won: false,
        closedCalls: 0,
      },
    ]);
    const nobody = ok(await anon("GET", `/discover/traders/0x${"12".repeat(20)}`));
    assert.deepEqual([nobody.traded, nobody.periods.all.rank, nobody.periods.all.pnl, nobody.markets], [false, null, "0", []]);
    problem(await anon("GET", "/discover/traders/0x1234"), 400, "INVALID_PAYLOAD");

    // Another category or collateral keeps no market; the season (2026-09-01 to 2027-01-01 by default) has ended.
    assert.equal((await board(`?category=${market.category === "SPORTS" ? "POLITICS" : "SPORTS"}`)).total, 0);
    assert.equal((await board("?collateral=USDC")).total, 0);
    const season = await board("?period=season");
    assert.deepEqual([season.total, season.measurement.period.end], [0, "2027-01-01T00:00:00.000Z"]);
    assert.equal((await board(`?category=${market.category}`)).measurement.scope, "committed_trading_category");
  });

  it("answers the deprecated cash-flow history of each side of the fill, with its deprecation headers", async () => {
    const res = await anon("GET", `/discover/traders/${bob}/pnl-history`);
    const h = ok(res);
    assert.deepEqual([h.method, h.total, h.netCashFlow, h.nextCursor], ["committed-cash-flow-v1", 1, (-5_500_000n - bobFee).toString(), null]);
    const [fill] = h.points as Json[];
    assert.deepEqual(
      [fill.kind, fill.outcome, fill.shares, fill.cashFlow, fill.fee, fill.cumulative, fill.marketAddress],
      ["buy", 1, (10n * SHARE).toString(), (-5_500_000n - bobFee).toString(), bobFee.toString(), (-5_500_000n - bobFee).toString(), market.address],
    );
    assert.match(res.headers.get("deprecation") ?? "", /^@\d+$/);
    assert.match(res.headers.get("link") ?? "", /rel="deprecation"/);
    const a = ok(await anon("GET", `/discover/traders/${alice}/pnl-history`)).points as Json[];
    assert.deepEqual(
      a.map((p) => [p.kind, p.outcome, p.cashFlow, p.fee, p.seq]),
      [["buy", 0, "-4500000", "0", fill.seq]],
    );
    const none = ok(await anon("GET", `/discover/traders/0x${"12".repeat(20)}/pnl-history`));
    assert.deepEqual([none.total, none.netCashFlow, none.points, none.nextCursor], [0, "0", [], null]);
    problem(await anon("GET", `/discover/traders/${bob}/pnl-history?cursor=5`), 400, "INVALID_PAYLOAD");
    problem(await anon("GET", `/discover/traders/${bob}/pnl-history?cursor=0`), 400, "INVALID_PAYLOAD");
  });

  it("a pinned generation pages the same figures while trading goes on, here and after a restart", async () => {
    const pinned = await board("?sort=VOLUME");
    const generation = pinned.measurement.generation as string;
    ok(await A("POST", "/orderbook/place-order", { market: market.address, outcome: 0, side: "buy", priceBps: "4500", size: (20n * SHARE).toString() }));
    ok(await B("POST", "/orderbook/place-order", { market: market.address, outcome: 1, side: "buy", priceBps: "5500", size: (20n * SHARE).toString() }));
    await tradesRecorded(2);

    const fresh = await board("?sort=VOLUME");
    assert.notEqual(fresh.measurement.generation, generation);
    assert.equal(row(fresh, bob)?.volume, "16.5");
    const again = await board(`?sort=VOLUME&generation=${generation}`);
    assert.deepEqual(again.traders, pinned.traders);
    assert.equal(again.measurement.asOf, pinned.measurement.asOf);
    // The id's instant and seq are what name the figures; its random bits do not.
    const named = generationOf(generation);
    assert.ok(named);
    const twin = uuidV7(named.asOf, named.lastSeq);
    const viaTwin = await board(`?sort=VOLUME&generation=${twin}`);
    assert.deepEqual([viaTwin.traders, viaTwin.measurement.generation], [pinned.traders, twin]);

    t = await restartTestService(t);
    anon = apiClient(t);
    const rebuilt = await board(`?sort=VOLUME&generation=${generation}`);
    assert.deepEqual(rebuilt.traders, pinned.traders, "the journal as of the generation's instant gives its figures again");
    assert.equal(rebuilt.measurement.generation, generation);
  });

  it("counts a period from its calendar start: next week the 7d board is empty, all-time keeps both", async () => {
    t.clock.advance(7 * 86_400_000);
    assert.equal((await board()).total, 0);
    const all = await board("?period=all");
    assert.deepEqual([all.total, all.measurement.period.start], [2, null]);
    assert.equal(row(all, bob)?.volume, "16.5");
  });

  it("gives each account's reputation: by wallet, by agent and in a batch, with its all-time trading", async () => {
    const all = await board("?period=all");
    const byWallet = ok(await anon("GET", `/reputation/wallets/${bob}`));
    assert.equal(byWallet.walletAddress, bob);
    assert.deepEqual(
      [byWallet.trader.traded, byWallet.trader.rank, byWallet.trader.pnl, byWallet.trader.volume],
      [true, (all.traders as Json[]).findIndex((r) => r.address === bob) + 1, row(all, bob)?.pnl, "16.5"],
    );
    assert.deepEqual(
      [byWallet.creator.tier, byWallet.creator.tierSource, byWallet.creator.history],
      ["new", "history", { created: 0, resolvedUnchallenged: 0, overturned: 0 }],
    );
    assert.deepEqual([byWallet.juror.ballots, byWallet.juror.rewards], [0, "0"]);

    const byAgent = ok(await anon("GET", `/reputation/agents/${bobAgentId}`));
    assert.deepEqual([byAgent.agentId, byAgent.name, byAgent.walletAddress, byAgent.trader], [bobAgentId, "lb-bob", bob, byWallet.trader]);
    problem(await anon("GET", `/reputation/agents/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`), 404, "AGENT_NOT_FOUND");
    problem(await anon("GET", "/reputation/agents/not-an-agent"), 404, "AGENT_NOT_FOUND");

    const nobody = `0x${"34".repeat(20)}`;
    const batch = ok(await anon("POST", "/reputation/batch", { walletAddresses: [bob, nobody, bob.toUpperCase().replace("0X", "0x")] }));
    assert.deepEqual(
      (batch.records as Json[]).map((r) => [r.walletAddress, r.trader.traded]),
      [
        [bob, true],
        [nobody, false],
        [bob, true],
      ],
    );
    problem(await anon("POST", "/reputation/batch", { walletAddresses: [] }), 400, "INVALID_PAYLOAD");
    problem(await anon("POST", "/reputation/batch", { walletAddresses: Array.from({ length: 101 }, () => nobody) }), 400, "INVALID_PAYLOAD");
  });

  it("ranks reputation by role over HTTP: the trader role follows the P&L board, overall is a third of it here", async () => {
    const all = await board("?period=all&sort=PNL");
    const traders = ok(await anon("GET", "/reputation/leaderboard?role=trader"));
    assert.deepEqual([traders.role, traders.period, traders.method, traders.generation], ["trader", "all", "role-percentile-v1", all.measurement.generation]);
    const n = (all.traders as Json[]).length;
    assert.deepEqual(
      (traders.entries as Json[]).map((e) => [e.address, e.rank, e.roles.trader.rank, e.roles.trader.rankedAmong]),
      (all.traders as Json[]).map((r, i) => [r.address, i + 1, i + 1, n]),
    );
    assert.equal(traders.entries[0].score, "100.00");
    // Nobody here created or judged a market: each overall score is the trader score over three.
    const overall = ok(await anon("GET", "/reputation/leaderboard?limit=1&offset=1"));
    assert.deepEqual([overall.role, overall.total, overall.hasMore, overall.entries.length], ["overall", n, n > 2, 1]);
    const second = (traders.entries as Json[])[1];
    assert.deepEqual(
      [overall.entries[0].address, overall.entries[0].rank, overall.entries[0].score],
      [second.address, 2, (Math.floor(Math.round(Number(second.score) * 100) / 3) / 100).toFixed(2)],
    );
    assert.deepEqual([overall.entries[0].roles.creator, overall.entries[0].roles.juror], [null, null]);
    assert.equal(ok(await anon("GET", "/reputation/leaderboard?role=juror")).total, 0);
    problem(await anon("GET", "/reputation/leaderboard?role=oracle"), 400, "INVALID_PAYLOAD");
    problem(await anon("GET", "/reputation/leaderboard?period=season"), 400, "INVALID_PAYLOAD");
    problem(await anon("GET", "/reputation/leaderboard?limit=0"), 400, "INVALID_PAYLOAD");
  });

  it("answers the creator and voter boards, and refuses what it cannot serve", async () => {
    const creators = await board("?sort=CREATOR_QUALITY&period=all");
    assert.equal(creators.board, "creators");
    assert.ok(Array.isArray(creators.creators));
    const voters = await board("?sort=VOTERS&period=all");
    assert.deepEqual([voters.board, voters.voters], ["voters", []]);

    problem(await anon("GET", "/discover/leaderboard?sort=LUCK"), 400, "INVALID_PAYLOAD");
    problem(await anon("GET", "/discover/leaderboard?limit=101"), 400, "INVALID_PAYLOAD");
    problem(await anon("GET", "/discover/leaderboard?offset=201"), 400, "INVALID_PAYLOAD");
    problem(await anon("GET", "/discover/leaderboard?period=1y"), 400, "INVALID_PAYLOAD");
    problem(await anon("GET", "/discover/leaderboard?category=sports"), 400, "INVALID_PAYLOAD");
    problem(await anon("GET", "/discover/leaderboard?generation=3f2504e0-4f89-41d3-9a0c-0305e82c3301"), 400, "INVALID_PAYLOAD");
    problem(await anon("GET", `/discover/leaderboard?generation=${uuidV7(t.clock.now() - 25 * 3_600_000, 1)}`), 410, "EXPIRED_TOKEN");
    problem(await anon("GET", `/discover/leaderboard?generation=${uuidV7(t.clock.now() + 60_000, 1)}`), 400, "INVALID_PAYLOAD");
    problem(await anon("GET", `/discover/leaderboard?generation=${uuidV7(t.clock.now() - 60_000, 1_000_000_000)}`), 400, "INVALID_PAYLOAD");
  });
});
