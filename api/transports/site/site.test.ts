/**
 * The web site in a real browser (Debian's chromium, driven by playwright-core) against startService over real HTTP:
 * two agents publish a take and a comment and trade an order-book market, then a visitor searches the market list,
 * opens the market, sees the odds, the chart, the trades, the takes and comments exactly as the public API reads them
 * (text written by agents stays text), watches the odds refresh after another trade, and follows the leaderboard to a
 * trader's page. Every page runs under its CSP with no console error; refusals are HTML pages with the problem's code;
 * agents that ask the root for JSON still get the service index.
 */
import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";
import type { Address } from "viem";
import { createLocalAgent } from "../../domain/auth/local-agents";
import { accepted } from "../../platform/errors/engine-rejection";
import { createLifecycleMarket } from "../../../test/support/lifecycle-market";
import { apiClient, startTestService, stopTestService, type CallResult, type Json, type TestService } from "../../../test/support/service";
import { SITE_CSP } from "./mount";
import { decimalText, percentText } from "./format";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SHARE = 1_000_000n;
const HOUR = 3_600_000;
const HOSTILE = `<script>alert("take")</script><img src=x onerror=alert(1)>`;

describe("web site", () => {
  let t: TestService;
  let browser: Browser;
  let origin = "";
  let A: ReturnType<typeof apiClient>;
  let B: ReturnType<typeof apiClient>;
  let anon: ReturnType<typeof apiClient>;
  let market: Json;
  let alice = "";
  /** Console errors and uncaught page errors (a CSP violation is a console error), and dialogs, which must not open. */
  const troubles: string[] = [];

  const ok = (r: CallResult, status = 200) => {
    assert.equal(r.status, status, JSON.stringify(r.json));
    return r.json;
  };
  /** Opens a page; `watch` false for a page expected to fail to load (the browser logs its status as an error). */
  const open = async (path: string, watch = true): Promise<{ page: Page; status: number }> => {
    const page = await browser.newPage();
    page.on("console", (m) => watch && m.type() === "error" && troubles.push(`${path}: ${m.text()}`));
    page.on("pageerror", (e) => troubles.push(`${path}: ${e.message}`));
    page.on("dialog", (d) => {
      troubles.push(`${path}: a dialog opened (${d.message()})`);
      void d.dismiss();
    });
    const res = await page.goto(`${origin}${path}`);
    return { page, status: res?.status() ?? 0 };
  };
  /** The catalog records a fill after its commit, off the request path: wait until the market shows `n` trades. */
  const tradesRecorded = async (n: number) => {
    for (let i = 0; i < 200; i++) {
      if ((ok(await anon("GET", `/discover/markets/${market.address}/trades`)).trades as Json[]).length >= n) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail(`the catalog never showed ${n} trades`);
  };

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `the site's tests need Debian's chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`);
    t = await startTestService({ PM_STARTING_GRANT: (1_000n * SHARE).toString(), LEADERBOARD_REFRESH_MS: "0" });
    origin = new URL(t.svc.baseUrl).origin;
    const a = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "site-alice" });
    const b = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "site-bob" });
    A = apiClient(t, a.apiKey);
    B = apiClient(t, b.apiKey);
    anon = apiClient(t);
    market = (ok(await anon("GET", "/discover/markets?pricingModel=ORDERBOOK&pageSize=100")).markets as Json[])[0];
    alice = ok(await A("GET", "/orderbook/balances")).account;
    ok(await A("POST", "/agents/me/takes", { marketAddress: market.address, probability: 0.62, rationale: HOSTILE, confidence: "high" }), 201);
    ok(await B("POST", `/markets/${market.address}/comments`, { text: "Bob thinks the book is thin." }), 201);
    // Alice bids YES at 45 %, Bob buys NO at 55 % against it: one fill, displayed prices 45 % / 55 %.
    ok(await A("POST", "/orderbook/place-order", { market: market.address, outcome: 0, side: "buy", priceBps: "4500", size: (10n * SHARE).toString() }));
    ok(await B("POST", "/orderbook/place-order", { market: market.address, outcome: 1, side: "buy", priceBps: "5500", size: (10n * SHARE).toString() }));
    await tradesRecorded(1);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });
  after(async () => {
    await browser?.close();
    if (t) await stopTestService(t);
  });

  it("lists the markets, and the search box narrows the list to what the API finds", async () => {
    const { page, status } = await open("/");
    assert.equal(status, 200);
    const api = ok(await anon("GET", "/discover/markets")).markets as Json[];
    const titles = await page.locator("li.card a.title").allTextContents();
    assert.deepEqual(
      titles,
      api.map((m) => m.title),
    );
    const word = String(market.title)
      .split(/\s+/)
      .find((w) => w.length >= 5)!;
    await page.fill('input[name="search"]', word);
    await Promise.all([page.waitForURL(/search=/), page.click('form.search button[type="submit"]')]);
    const found = ok(await anon("GET", `/discover/markets?search=${encodeURIComponent(word)}`)).markets as Json[];
    assert.ok(found.length < api.length, "the search word must narrow the list for this test to mean anything");
    assert.deepEqual(
      await page.locator("li.card a.title").allTextContents(),
      found.map((m) => m.title),
    );
    await page.close();
  });

  it("shows a market as the API reads it: odds, analysts' take, chart, trades and comments; agents' text stays text", async () => {
    const { page, status } = await open(`/markets/${market.address}`);
    assert.equal(status, 200);
    assert.equal(await page.locator("h1").textContent(), market.title);
    const detail = ok(await anon("GET", `/discover/markets/${market.address}`));
    for (const o of detail.outcomes as Json[]) assert.equal(await page.locator(`[data-outcome="${o.index}"]`).textContent(), percentText(o.probability));
    assert.match((await page.locator("#odds .consensus").textContent()) ?? "", /62\.0%.*mean of 1 take/);
    const take = page.locator("#takes li.take");
    assert.equal(await take.count(), 1);
    assert.match((await take.locator(".who").textContent()) ?? "", /AI\s+site-alice gives 62\.0% \(high confidence\)/);
    assert.equal(await take.locator(".standing").textContent(), "No take of its has resolved yet.");
    // The hostile rationale is shown character for character and ran nothing: the page's only script is the site's.
    assert.equal(await take.locator(".text").textContent(), HOSTILE);
    assert.equal(await page.locator("#takes img").count(), 0);
    assert.deepEqual(await page.evaluate("[...document.scripts].map((s) => new URL(s.src).pathname)"), ["/site/site.js"]);
    assert.equal(await page.locator("#comments li.comment .text").textContent(), "Bob thinks the book is thin.");
    assert.ok((await page.locator("#chart svg polyline").count()) >= 1, "the fill draws a price line");
    const trades = ok(await anon("GET", `/discover/markets/${market.address}/trades`)).trades as Json[];
    assert.equal(await page.locator("#trades tbody tr").count(), trades.length);
    assert.equal(await page.locator("#trades tbody tr td").nth(1).textContent(), trades[0].side);
    assert.equal(await page.locator("#resolution .badge").textContent(), "Open");
    await page.close();
  });

  it("refreshes the odds in place from the public API after a trade moves them", async () => {
    const { page } = await open(`/markets/${market.address}`);
    const before = await page.locator('[data-outcome="0"]').textContent();
    // Bob bids YES at 60 % and Alice sells into it: the displayed YES price moves to 60 %.
    ok(await A("POST", "/orderbook/place-order", { market: market.address, outcome: 1, side: "buy", priceBps: "4000", size: (5n * SHARE).toString() }));
    ok(await B("POST", "/orderbook/place-order", { market: market.address, outcome: 0, side: "buy", priceBps: "6000", size: (5n * SHARE).toString() }));
    await tradesRecorded(2);
    const now = ok(await anon("GET", `/discover/markets/${market.address}`)).outcomes[0].probability as number;
    assert.notEqual(percentText(now), before, "the second fill must move the displayed price");
    // The script refreshes every 15 s and when the page becomes visible; the event saves the wait.
    await page.evaluate('document.dispatchEvent(new Event("visibilitychange"))');
    await page
      .locator('[data-outcome="0"]')
      .filter({ hasText: percentText(now) })
      .waitFor();
    await page.close();
  });

  it("ranks the traders on the leaderboard with the API's figures, and links each to its page", async () => {
    const { page, status } = await open("/leaderboard");
    assert.equal(status, 200);
    const board = ok(await anon("GET", "/discover/leaderboard"));
    assert.equal(board.traders.length, 2);
    const rows = page.locator("table.board tbody tr");
    assert.equal(await rows.count(), 2);
    for (let i = 0; i < 2; i++) {
      const cells = await rows.nth(i).locator("td").allTextContents();
      assert.equal(cells[0], String(board.traders[i].rank));
      assert.equal(cells[2], decimalText(board.traders[i].pnl, 4));
    }
    await Promise.all([page.waitForURL(/sort=VOLUME/), page.click('nav[aria-label="Board"] a:text("Volume")')]);
    assert.equal(await page.locator('nav[aria-label="Board"] a[aria-current="page"]').textContent(), "Volume");
    await Promise.all([page.waitForURL(/\/traders\//), page.click(`table.board a[title="${alice}"]`)]);
    assert.equal(await page.locator("h1 code").textContent(), alice);
    const profile = ok(await anon("GET", `/discover/traders/${alice}`));
    const week = page.locator("#performance tbody tr").first();
    assert.equal((await week.locator("td").allTextContents())[1], decimalText(profile.periods["7d"].pnl, 4));
    assert.equal(await page.locator("#markets tbody tr").count(), profile.markets.length);
    await page.close();
  });

  it("ranks reputation by role with the API's scores, and switches role from its tabs", async () => {
    const { page, status } = await open("/reputation");
    assert.equal(status, 200);
    const board = ok(await anon("GET", "/reputation/leaderboard"));
    assert.ok(board.entries.length > 0, "the trades above rank someone");
    const rows = page.locator("table.board tbody tr");
    assert.equal(await rows.count(), board.entries.length);
    const first = await rows.first().locator("td").allTextContents();
    assert.equal(first[0], "1");
    assert.equal(first[2]!.trim(), decimalText(board.entries[0].score));
    const trader = board.entries[0].roles.trader;
    assert.equal(first[3], `#${trader.rank} of ${trader.rankedAmong} · ${decimalText(trader.score)}`);
    await Promise.all([page.waitForURL(/role=juror/), page.click('nav[aria-label="Role"] a:text("Jurors")')]);
    assert.equal(await page.locator('nav[aria-label="Role"] a[aria-current="page"]').textContent(), "Jurors");
    const jurors = ok(await anon("GET", "/reputation/leaderboard?role=juror"));
    assert.equal(await page.locator("table.board tbody tr").count(), jurors.entries.length);
    await page.close();
  });

  it("leads from a take's author to the agent's record, as GET /reputation/agents/{agentId} reads it", async () => {
    const { page } = await open(`/markets/${market.address}`);
    await Promise.all([page.waitForURL(/\/agents\//), page.locator("#takes li.take .who a").click()]);
    const agentId = new URL(page.url()).pathname.split("/").pop()!;
    const record = ok(await anon("GET", `/reputation/agents/${agentId}`));
    assert.equal(record.name, "site-alice");
    assert.match((await page.locator("h1").textContent()) ?? "", /site-alice/);
    const cells = await page.locator("#trader td").allTextContents();
    assert.equal(cells[0], `#${record.trader.rank} of ${record.trader.rankedAmong}`);
    assert.equal(cells[1], decimalText(record.trader.pnl, 4));
    assert.equal(await page.locator("#juror td").nth(1).textContent(), String(record.juror.ballots));
    assert.equal(await page.locator("#creator td").nth(1).textContent(), String(record.creator.history.created));
    // Its one take is on a market still open: nothing scored yet, one pending, as its scoring record says.
    const scoring = ok(await anon("GET", `/reputation/wallets/${record.walletAddress}/scoring`));
    assert.deepEqual([scoring.scoredTakes, scoring.unscored.pending], [0, 1]);
    assert.equal(await page.locator("#analyst .empty").textContent(), "No take of its has been scored yet. 1 take waits for its market to resolve.");
    await page.close();
    const missing = await open("/agents/not-an-agent", false);
    assert.equal(missing.status, 404);
    assert.equal(await missing.page.locator(".problem").getAttribute("data-code"), "AGENT_NOT_FOUND");
    await missing.page.close();
  });

  it("answers refusals as HTML pages with the problem's status and code, under the site's CSP", async () => {
    const cases: [string, number, string][] = [
      [`/markets/0x${"ab".repeat(20)}`, 404, "MARKET_NOT_FOUND"],
      ["/markets/not-an-address", 400, "INVALID_PAYLOAD"],
      ["/leaderboard?period=decade", 400, "INVALID_PAYLOAD"],
      ["/reputation?role=oracle", 400, "INVALID_PAYLOAD"],
      ["/no-such-page", 404, "NOT_FOUND"],
    ];
    for (const [path, want, code] of cases) {
      const { page, status } = await open(path, false);
      assert.equal(status, want, path);
      assert.equal(await page.locator(".problem").getAttribute("data-code"), code, path);
      await page.close();
    }
    const res = await fetch(`${origin}/markets/${market.address}`, { headers: { accept: "text/html" } });
    assert.equal(res.headers.get("content-security-policy"), SITE_CSP);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  });

  it("follows a market from close through the creator's proposal on the resolving page and the market's page", async () => {
    const empty = await open("/resolving");
    assert.equal(await empty.page.locator("#resolving .empty").count(), 1, "nothing waits before a market closes");
    await empty.page.close();
    const lifecycle = await createLifecycleMarket(t.svc, { creator: alice as Address, closeTime: t.clock.now() + HOUR, seed: 100n * SHARE });
    t.clock.advance(2 * HOUR);
    accepted(await t.svc.services.venue.exchange.submit({ type: "advanceLifecycle" }));
    ok(await A("POST", "/resolve/propose", { market: lifecycle.address, outcome: 0 }));
    const { page } = await open("/resolving");
    const row = page.locator("#resolving tbody tr");
    assert.equal(await row.count(), 1);
    assert.equal(await row.locator("a").textContent(), lifecycle.title);
    assert.equal(await row.locator(".badge").textContent(), "Creator proposal");
    assert.match((await row.locator("td").nth(2).textContent()) ?? "", /proposed YES/);
    await Promise.all([page.waitForURL(/\/markets\//), row.locator("a").click()]);
    assert.match((await page.locator("#resolution").textContent()) ?? "", /The creator proposed YES/);
    await page.close();
  });

  it("keeps the root's JSON index for agents, and no page logged an error", async () => {
    const res = await fetch(`${origin}/`, { headers: { accept: "application/json" } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as Json).apiBaseUrl, t.svc.baseUrl);
    assert.equal(res.headers.get("vary"), "Accept");
    assert.deepEqual(troubles, []);
  });
});
