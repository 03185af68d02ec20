/**
 * The analysts' scoring record and cohort over real HTTP: two analysts post takes on five order-book markets that
 * resolve (one of them traded, so the market's price differs for a take posted before and after the trade), one
 * market stays open and one take is for a horizon; the figures are checked against hand-computed Brier scores, and
 * the web site's agent page (in Debian's chromium) shows the same record.
 */
import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { chromium } from "playwright-core";
import type { Address } from "viem";
import { createLocalAgent } from "../../domain/auth/local-agents";
import { accepted } from "../../platform/errors/engine-rejection";
import { createLifecycleMarket } from "../../../test/support/lifecycle-market";
import { apiClient, startTestService, stopTestService, type CallResult, type Json, type TestService } from "../../../test/support/service";

const SHARE = 1_000_000n;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The resolution of the five scored markets: YES, NO, YES, NO, YES. */
const OUTCOMES = [0, 1, 0, 1, 0];
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

describe("analysts' scoring (GET /reputation/wallets/{walletAddress}/scoring, GET /reputation/scoring-cohort)", () => {
  let t: TestService;
  let anon: ReturnType<typeof apiClient>;
  const who: Record<string, { call: ReturnType<typeof apiClient>; account: string; agentId: string }> = {};
  const scored: string[] = [];
  let open = "";

  const ok = (r: CallResult, status = 200) => {
    assert.equal(r.status, status, JSON.stringify(r.json));
    return r.json;
  };
  const poll = async (what: string, done: () => Promise<boolean>) => {
    for (let i = 0; i < 300; i++) {
      if (await done()) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail(`never: ${what}`);
  };
  const take = (name: string, market: string, probability: number, horizon?: string) =>
    who[name].call("POST", "/agents/me/takes", { marketAddress: market, probability, rationale: `${name} on ${market}`, ...(horizon ? { horizon } : {}) });

  before(async () => {
    t = await startTestService({ PM_STARTING_GRANT: (1_000n * SHARE).toString() });
    anon = apiClient(t);
    for (const name of ["alice", "bob", "carol"]) {
      const a = await createLocalAgent(t.svc.ctx.db, t.clock, { name: `score-${name}` });
      who[name] = { call: apiClient(t, a.apiKey), account: a.ledgerAccount, agentId: a.agentId };
      ok(await who[name].call("GET", "/orderbook/balances")); // the starting grant: Carol's creation bonds come from it
    }
    const creator = who.carol.account as Address;
    for (let i = 0; i < 5; i++) {
      const m = await createLifecycleMarket(t.svc, { creator, closeTime: t.clock.now() + HOUR, pricing: "ORDERBOOK", title: `Scored market ${i}` });
      scored.push(m.address);
    }
    open = (await createLifecycleMarket(t.svc, { creator, closeTime: t.clock.now() + 10 * DAY, pricing: "ORDERBOOK", title: "Still open" })).address;

    // Bob speaks on market 0 before its only trade (the market shows the prior, 0.5), Alice after it (0.45).
    ok(await take("bob", scored[0], 0.2), 201);
    t.clock.advance(1_000);
    ok(
      await who.alice.call("POST", "/orderbook/place-order", { market: scored[0], outcome: 0, side: "buy", priceBps: "4500", size: (10n * SHARE).toString() }),
    );
    ok(
      await who.carol.call("POST", "/orderbook/place-order", { market: scored[0], outcome: 1, side: "buy", priceBps: "5500", size: (10n * SHARE).toString() }),
    );
    await poll("the trade in the catalog", async () => (ok(await anon("GET", `/discover/markets/${scored[0]}/trades`)).trades as Json[]).length > 0);
    t.clock.advance(1_000);
    // Alice says 0.8 on the YES markets and 0.3 on the NO ones; Bob 0.2 and 0.7.
    for (const [i, outcome] of OUTCOMES.entries()) {
      ok(await take("alice", scored[i], outcome === 0 ? 0.8 : 0.3), 201);
      if (i > 0) ok(await take("bob", scored[i], outcome === 0 ? 0.2 : 0.7), 201);
    }
    ok(await take("alice", open, 0.9), 201);
    ok(await take("bob", open, 0.4, new Date(t.clock.now() + DAY).toISOString()), 201);

    // Close, propose, let the challenge windows pass unchallenged: the five resolve as proposed.
    t.clock.advance(2 * HOUR);
    accepted(await t.svc.services.venue.exchange.submit({ type: "advanceLifecycle" }));
    for (const [i, outcome] of OUTCOMES.entries()) ok(await who.carol.call("POST", "/resolve/propose", { market: scored[i], outcome }));
    t.clock.advance(DAY + HOUR);
    accepted(await t.svc.services.venue.exchange.submit({ type: "advanceLifecycle" }));
    for (const m of scored) await poll(`${m} resolved in the catalog`, async () => ok(await anon("GET", `/discover/markets/${m}`)).state === "resolved");
  });
  after(async () => stopTestService(t));

  it("scores each take against its outcome and against the market's price when it was posted", async () => {
    const a = ok(await anon("GET", `/reputation/wallets/${who.alice.account}/scoring`));
    assert.equal(a.agentId, who.alice.agentId);
    assert.equal(a.name, "score-alice");
    assert.equal(a.method, "take-brier-v1");
    assert.equal(a.period.kind, "all");
    // Alice: 0.04 on each YES market, 0.09 on each NO one = 0.30 / 5; the market: 0.3025 (0.45 on YES) + 4 × 0.25.
    assert.deepEqual([a.scoredTakes, a.meanBrier, a.marketMeanBrier, a.skill], [5, "0.06", "0.2605", "0.2005"]);
    assert.deepEqual(a.unscored, { pending: 1, void: 0, horizon: 0 });
    assert.equal(a.total, 5);
    const first = (a.takes as Json[]).find((x) => x.marketAddress === scored[0])!;
    assert.deepEqual(
      [first.probability, first.marketProbability, first.outcome, first.brier, first.marketBrier, first.title],
      [0.8, 0.45, "YES", "0.04", "0.3025", "Scored market 0"],
    );
    const second = (a.takes as Json[]).find((x) => x.marketAddress === scored[1])!;
    assert.deepEqual([second.probability, second.marketProbability, second.outcome, second.brier, second.marketBrier], [0.3, 0.5, "NO", "0.09", "0.25"]);
    // Calibration: two forecasts at 0.3, both NO; three at 0.8, all YES.
    assert.deepEqual(a.calibration[3], { from: "0.3", to: "0.4", forecasts: 2, meanProbability: "0.3", observedYes: "0" });
    assert.deepEqual(a.calibration[8], { from: "0.8", to: "0.9", forecasts: 3, meanProbability: "0.8", observedYes: "1" });

    // Bob: 0.64 on each YES market, 0.49 on each NO = 2.9 / 5; his market-0 take came before the trade (0.5).
    const b = ok(await anon("GET", `/reputation/wallets/${who.bob.account}/scoring`));
    assert.deepEqual([b.scoredTakes, b.meanBrier, b.marketMeanBrier, b.skill], [5, "0.58", "0.25", "-0.33"]);
    assert.equal((b.takes as Json[]).find((x) => x.marketAddress === scored[0])!.marketProbability, 0.5);
    assert.deepEqual(b.unscored, { pending: 0, void: 0, horizon: 1 });
    assert.deepEqual([a.rank, b.rank, a.rankedAmong], [1, 2, 2]);
  });

  it("gives each take of the research read its author's all-time scoring", async () => {
    const r = ok(await anon("GET", `/discover/markets/${open}/research`));
    const of = (name: string) => (r.takes as Json[]).find((x) => x.author.name === `score-${name}`)!.authorScoring;
    assert.deepEqual(of("alice"), { scoredTakes: 5, meanBrier: "0.06", marketMeanBrier: "0.2605", skill: "0.2005", rank: 1 });
    assert.deepEqual(of("bob"), { scoredTakes: 5, meanBrier: "0.58", marketMeanBrier: "0.25", skill: "-0.33", rank: 2 });
  });

  it("ranks the cohort by skill over the market, with the whole cohort's figures", async () => {
    const c = ok(await anon("GET", "/reputation/scoring-cohort"));
    assert.equal(c.minScoredTakesToRank, 5);
    // Ten takes: (0.30 + 2.9) / 10 against the market's (1.3025 + 1.25) / 10.
    assert.deepEqual(c.cohort, { analysts: 2, scoredTakes: 10, meanBrier: "0.32", marketMeanBrier: "0.25525", skill: "-0.06475" });
    assert.deepEqual(
      (c.analysts as Json[]).map((x) => [x.rank, x.walletAddress, x.name, x.skill]),
      [
        [1, who.alice.account, "score-alice", "0.2005"],
        [2, who.bob.account, "score-bob", "-0.33"],
      ],
    );
    assert.equal(c.total, 2);
    const page = ok(await anon("GET", "/reputation/scoring-cohort?limit=1&offset=1"));
    assert.deepEqual([page.hasMore, (page.analysts as Json[]).map((x) => x.rank)], [false, [2]]);
    assert.equal(ok(await anon("GET", "/reputation/scoring-cohort?limit=1")).hasMore, true);
  });

  it("pages a record, answers zeros for an address with no take, and refuses bad input", async () => {
    const p = ok(await anon("GET", `/reputation/wallets/${who.alice.account.toUpperCase().replace("0X", "0x")}/scoring?limit=2&offset=4`));
    assert.deepEqual([p.walletAddress, p.total, p.hasMore, (p.takes as Json[]).length], [who.alice.account, 5, false, 1]);
    assert.equal(ok(await anon("GET", `/reputation/wallets/${who.alice.account}/scoring?limit=2`)).hasMore, true);
    const none = ok(await anon("GET", `/reputation/wallets/0x${"12".repeat(20)}/scoring`));
    assert.deepEqual([none.agentId, none.scoredTakes, none.meanBrier, none.skill, none.rank, none.rankedAmong, none.takes], [null, 0, null, null, null, 2, []]);
    // The carol agent traded and created but wrote no take: no figures, not a 404.
    assert.equal(ok(await anon("GET", `/reputation/wallets/${who.carol.account}/scoring`)).scoredTakes, 0);
    for (const path of ["/reputation/wallets/0x12/scoring", "/reputation/scoring-cohort?period=year", "/reputation/scoring-cohort?limit=0"]) {
      const r = await anon("GET", path);
      assert.equal(r.status, 400, path);
      assert.equal(r.json.code, "INVALID_PAYLOAD", path);
    }
  });

  it("shows the analysts page, the record on the agent's page and each take's author record on the web site", async () => {
    assert.ok(existsSync(CHROMIUM), `the site's tests need Debian's chromium at ${CHROMIUM} (apt-get install -y chromium)`);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    try {
      const page = await browser.newPage();
      const troubles: string[] = [];
      page.on("console", (m) => m.type() === "error" && troubles.push(m.text()));
      page.on("pageerror", (e) => troubles.push(e.message));
      const origin = new URL(t.svc.baseUrl).origin;
      // The analysts page: the cohort's ranking and calibration, as GET /reputation/scoring-cohort reads them.
      assert.equal((await page.goto(`${origin}/analysts`))?.status(), 200);
      const ranked = page.locator("#board table.board tbody tr");
      assert.deepEqual(await ranked.nth(0).locator("td").allTextContents(), ["1", "AI score-alice", "5", "0.06", "0.2605", "0.2005"]);
      assert.deepEqual(await ranked.nth(1).locator("td").allTextContents(), ["2", "AI score-bob", "5", "0.58", "0.25", "-0.33"]);
      // Ten takes: Alice's 0.3 (×2, NO) and 0.8 (×3, YES), Bob's 0.2 (×3, YES) and 0.7 (×2, NO).
      assert.deepEqual(
        await page.locator("#calibration tbody tr").evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent))),
        [
          ["20.0%–30.0%", "3", "20.0%", "100.0%"],
          ["30.0%–40.0%", "2", "30.0%", "0.0%"],
          ["70.0%–80.0%", "2", "70.0%", "0.0%"],
          ["80.0%–90.0%", "3", "80.0%", "100.0%"],
        ],
      );
      await Promise.all([page.waitForURL(/\/agents\//), ranked.nth(0).locator("a").click()]);
      assert.equal(new URL(page.url()).pathname, `/agents/${who.alice.agentId}`);
      assert.deepEqual(await page.locator("#analyst table.record td").allTextContents(), ["5", "0.06", "0.2605", "0.2005", "#1 of 2"]);
      const rows = page.locator("#analyst table.scored tbody tr");
      assert.equal(await rows.count(), 5);
      const first = await page.locator(`#analyst table.scored tr:has(a[href="/markets/${scored[0]}"]) td`).allTextContents();
      assert.deepEqual(first, ["Scored market 0", "80.0%", "45.0%", "YES"]);
      assert.match((await page.locator("#analyst p.description").textContent()) ?? "", /1 take waits for its market to resolve/);
      // On the open market, each take carries its author's record, as the research read gives it.
      await page.goto(`${origin}/markets/${open}`);
      const standing = await page.locator("#takes li.take p.standing").allTextContents();
      assert.ok(standing.includes("Brier 0.06 over 5 resolved takes, 0.2005 better than the market, #1 of the analysts."), standing.join(" | "));
      assert.ok(standing.includes("Brier 0.58 over 5 resolved takes, 0.33 worse than the market, #2 of the analysts."), standing.join(" | "));
      await page.goto(`${origin}/analysts?period=season`);
      assert.equal(await page.locator("#board .empty").textContent(), "No analyst has enough scored takes in this period yet.");
      assert.deepEqual(troubles, []);
    } finally {
      await browser.close();
    }
  });

  it("counts a period by the markets' resolution: this week holds them, next week and the past season do not", async () => {
    const cohort = async (period: string) => ok(await anon("GET", `/reputation/scoring-cohort?period=${period}`));
    // The test clock starts on 2027-01-15: the resolutions fall in this week and month, after the 2026 season.
    assert.equal((await cohort("7d")).cohort.scoredTakes, 10);
    assert.equal((await cohort("30d")).cohort.scoredTakes, 10);
    assert.deepEqual([(await cohort("season")).cohort.scoredTakes, (await cohort("season")).total], [0, 0]);
    t.clock.advance(7 * DAY);
    const next = await cohort("7d");
    assert.deepEqual([next.cohort.scoredTakes, next.cohort.meanBrier, next.total], [0, null, 0]);
    assert.equal((await cohort("all")).cohort.scoredTakes, 10);
    const record = ok(await anon("GET", `/reputation/wallets/${who.alice.account}/scoring?period=7d`));
    assert.deepEqual([record.scoredTakes, record.rank, record.unscored.pending], [0, null, 1]);
  });
});
