/**
 * `pm-agent` through a market's whole life, against startService over real HTTP with a manual clock: create-market's
 * dry run listing every failed check and its refusals changing nothing; a market created in one command, closing when
 * the service's clock says, with its bond and seed locked; a creation cut short after propose finished by --resume, and
 * resumed again without a second market; quote equal to the API's and moving nothing; a trade; resolve state naming
 * each agent's actions; the creator's proposal, refused to another agent; the market resolving once the challenge window
 * passed, and the holder's payout listed; the creator's residual listed and collected once; a challenged market in
 * council review settled by a member's signed act, a non-member's refused.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createLocalAgent, type LocalAgent } from "../../api/domain/auth/local-agents";
import { accepted } from "../../api/platform/errors/engine-rejection";
import { apiClient, startTestService, stopTestService, type Json, type TestService } from "../../test/support/service";
import { runAgentCli } from "./main";

const PM = 1_000_000n;
const HOUR = 3_600_000;
const ADMIN_TOKEN = "adm_lifecycle_cli_test_token_0123456789";

describe("pm-agent: create, quote, trade, resolve, payouts", () => {
  let t: TestService;
  let home = "";
  let creator: LocalAgent;
  let trader: LocalAgent;
  let market = "";
  let book = "";

  /** Runs one command line in-process as `who`: its exit code and what it printed. */
  const cli = async (who: LocalAgent | null, ...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const env = { PM_AGENT_HOME: home, ...(who ? { PM_AGENT_KEY: who.apiKey } : {}) };
    const code = await runAgentCli(["--url", t.svc.baseUrl, ...argv], { out: (s) => out.push(s), err: (s) => err.push(s), env });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };
  const api = (who: LocalAgent | null) => apiClient(t, who?.apiKey);
  const pm = async (who: LocalAgent) =>
    BigInt(((await api(who)("GET", "/orderbook/balances")).json.balances as Json[]).find((b) => b.asset === "PM")!.available);
  const myMarkets = async () => ((await api(null)("GET", `/discover/markets?creator=${creator.ledgerAccount}&pageSize=100`)).json.markets as Json[]).length;
  const create = (...extra: string[]) =>
    cli(
      creator,
      "create-market",
      "--title",
      "Will the command-line helper list this market?",
      "--source-note",
      "the creator answers from the test's own run",
      "--category",
      "TECH",
      ...extra,
    );

  before(async () => {
    t = await startTestService({ PM_STARTING_GRANT: (1_000n * PM).toString(), SEED_DEMO_MARKETS: "false", ADMIN_TOKEN });
    home = join(mkdtempSync(join(tmpdir(), "pm-agent-life-")), "config");
    creator = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "cli-creator" });
    trader = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "cli-holder" });
    for (const a of [creator, trader]) assert.equal((await api(a)("GET", "/orderbook/balances")).status, 200); // accounts open with their grant
  });
  after(async () => stopTestService(t));

  it("a dry run lists every failed check with its code and creates nothing; missing options are refused before sending", async () => {
    const before = await myMarkets();
    const dry = await cli(creator, "create-market", "--title", "Too short", "--close", "30m", "--seed", "100", "--source-note", "n", "--dry-run");
    assert.equal(dry.code, 1, dry.err);
    assert.match(dry.err, /the terms fail 2 check\(s\); nothing was created/);
    assert.match(dry.err, /title: INVALID_PAYLOAD/);
    assert.match(dry.err, /closeTime: CLOSE_TIME_OUT_OF_RANGE/);
    const passing = await create("--close", "48h", "--seed", "100", "--dry-run");
    assert.equal(passing.code, 0, passing.err);
    assert.match(passing.out, /pass every check \(committed lane\)/);

    const refused = await cli(creator, "create-market", "--title", "Too short", "--close", "30m", "--seed", "100", "--source-note", "n");
    assert.equal(refused.code, 1, "the service's refusal");
    assert.match(refused.err, /^pm-agent: 400 INVALID_PAYLOAD/);
    assert.match(refused.err, /\n {2}closeTime: CLOSE_TIME_OUT_OF_RANGE/, "every failed check, each with its code");
    const usage = await cli(creator, "create-market", "--title", "Will a market without a close be refused?");
    assert.equal(usage.code, 2);
    assert.match(usage.err, /needs --close, --seed, --source-note or --polymarket/);
    assert.equal((await cli(creator, "create-market", "--title", "x", "--close", "tomorrow", "--seed", "1", "--source-note", "n")).code, 2);
    const unserved = await create("--close", "48h", "--seed", "100", "--collateral", "DOGE");
    assert.equal(unserved.code, 2);
    assert.match(unserved.err, /--collateral must be one this service serves: PM/);
    assert.equal(await myMarkets(), before);
  });

  it("creates an LMSR market in one command: it closes 48 h after the service's now, its bond and seed are locked", async () => {
    const before = await pm(creator);
    const r = await create("--close", "48h", "--seed", "100");
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /negotiation \S+ proposed; if this run stops, finish it with: pm-agent create-market --resume \S+/);
    market = /^listed (0x[0-9a-f]{40}) \(market \d+, LMSR, committed lane, PM\), open: Yes \/ No$/m.exec(r.out)![1]!;
    const m = (await api(null)("GET", `/discover/markets/${market}`)).json;
    assert.equal(m.title, "Will the command-line helper list this market?");
    assert.equal(m.category, "TECH");
    assert.equal(Date.parse(m.closeTime), t.clock.now() + 48 * HOUR, "relative to the service's clock, not the caller's");
    const bond = BigInt(/locked ([\d,.]+) PM bond/.exec(r.out)![1]!.replaceAll(",", "")) * PM;
    assert.match(r.out, /and 100 PM seed/);
    assert.equal(before - (await pm(creator)), bond + 100n * PM, "what the summary says was locked left the creator's PM");
  });

  it("--resume finishes a creation cut short after propose, and again answers the same market", async () => {
    const closeTime = new Date(t.clock.now() + 72 * HOUR).toISOString();
    const proposed = await api(creator)("POST", "/negotiate/propose", {
      externalId: "cut-short",
      title: "Will a resumed creation list exactly one market?",
      pricingModel: "ORDERBOOK",
      collateral: "PM",
      closeTime,
      resolutionSource: { type: "creator", note: "the test" },
    });
    assert.equal(proposed.status, 201, JSON.stringify(proposed.json));
    const before = await myMarkets();
    const mixed = await cli(creator, "create-market", "--resume", proposed.json.id, "--seed", "5", "--dry-run");
    assert.equal(mixed.code, 2, "terms given with --resume are refused, not ignored");
    assert.match(mixed.err, /leave out --seed, --dry-run/);
    const printed = await cli(creator, "create-market", "--resume", proposed.json.id, "--print");
    assert.equal(printed.code, 2, "--print is the on-chain lane's");
    assert.match(printed.err, /are for the on-chain lane; this market is PM's/);
    assert.equal((await cli(creator, "create-market", "--tx-hash", `0x${"1".repeat(64)}`)).code, 2, "--tx-hash goes with --resume");
    const first = await cli(creator, "--json", "create-market", "--resume", proposed.json.id);
    assert.equal(first.code, 0, first.err);
    const again = await cli(creator, "--json", "create-market", "--resume", proposed.json.id);
    assert.equal(again.code, 0, again.err);
    assert.equal(JSON.parse(again.out).market.address, JSON.parse(first.out).market.address);
    assert.equal(JSON.parse(first.out).market.pricingModel, "ORDERBOOK");
    book = JSON.parse(first.out).market.address;
    assert.equal(await myMarkets(), before + 1, "one market, however often it is resumed");
  });

  it("quotes as the API does without moving anything; trades; resolve state names each agent's actions", async () => {
    const before = await pm(trader);
    const q = await cli(trader, "--json", "quote", market, "--outcome", "0", "--side", "buy", "--shares", "40");
    assert.equal(q.code, 0, q.err);
    const direct = await api(trader)("POST", "/trade/quote", { market, outcome: 0, side: "buy", shares: (40n * PM).toString() });
    assert.deepEqual(JSON.parse(q.out), direct.json);
    const text = await cli(trader, "quote", market, "--outcome", "0", "--side", "buy", "--shares", "40");
    assert.match(text.out, /^buy 40 of Yes: costs [\d.,]+ PM \(at most [\d.,]+ PM at \d+ bps slippage\), fee/);
    assert.equal(await pm(trader), before, "a quote moves nothing");
    const traded = await cli(trader, "trade", market, "--outcome", "0", "--side", "buy", "--shares", "40");
    assert.equal(traded.code, 0, traded.err);

    const mine = await cli(creator, "resolve", "state", market);
    assert.equal(mine.code, 0, mine.err);
    assert.match(mine.out, /: open \(0 Yes, 1 No\)/);
    assert.match(mine.out, /propose\s+yes/);
    const theirs = await cli(trader, "resolve", "state", market);
    assert.match(theirs.out, /propose\s+no: NOT_CREATOR/);
    assert.match((await cli(null, "resolve", "state", market)).out, /read without a key: with one, this agent's own actions show here/);
  });

  it("the creator proposes (another agent is refused); once the challenge window passes it resolves and the holder's payout is listed", async () => {
    const refused = await cli(trader, "resolve", "propose", market, "--outcome", "0");
    assert.equal(refused.code, 1);
    assert.match(refused.err, /403 FORBIDDEN \(NOT_CREATOR\)/);
    assert.equal((await cli(creator, "resolve", "propose", market, "--outcome", "maybe")).code, 2);
    const early = await cli(trader, "resolve", "challenge", market);
    assert.equal(early.code, 1, "nothing to challenge yet");
    assert.match(early.err, /409 CONFLICT \(WRONG_MARKET_STATE\): /, "the problem's reason is named");

    const p = await cli(creator, "resolve", "propose", market, "--outcome", "0");
    assert.equal(p.code, 0, p.err);
    assert.match(p.out, /-> creator_proposal \(/);
    assert.match(p.out, /proposed Yes at /);

    const before = await pm(trader);
    t.clock.advance(24 * HOUR + 1);
    accepted(await t.svc.services.venue.exchange.submit({ type: "advanceLifecycle" })); // what the lifecycle timer does when challengeBy falls due
    assert.match((await cli(null, "resolve", "state", market)).out, /: resolved \(/);
    const paid = (await pm(trader)) - before;
    assert.ok(paid > 0n, "the YES holder was paid at resolution");

    const listed = await cli(trader, "payouts");
    assert.equal(listed.code, 0, listed.err);
    const available = (await api(trader)("GET", "/claims/available")).json;
    const item = (available.payouts as Json[]).find((x) => x.marketAddress === market)!;
    assert.equal(BigInt(item.amount), paid);
    assert.match(listed.out, new RegExp(`${market}\\s+[\\d,.]+\\s+claimed`));
    assert.match(listed.out, /total [\d,.]+ PM/);
  });

  it("the creator lists its funds and collects the final market's residual once; another agent collects nothing", async () => {
    const listed = await cli(creator, "creator-funds");
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, new RegExp(`${market}\\s+[\\d,.]+ PM\\s+claimable`));
    const stranger = await cli(trader, "creator-funds", "--collect", market);
    assert.equal(stranger.code, 0, stranger.err);
    assert.match(stranger.out, /SKIPPED \(NOT_CREATOR_OR_NOT_FOUND\)/);

    const before = await pm(creator);
    const collected = await cli(creator, "--json", "creator-funds", "--collect");
    assert.equal(collected.code, 0, collected.err);
    const [c] = JSON.parse(collected.out).collections as Json[];
    assert.equal(c!.marketAddress, market);
    assert.equal(c!.marketBalance.state, "COLLECTED");
    assert.ok(BigInt(c!.marketBalance.amount) > 0n);
    assert.equal((await pm(creator)) - before, BigInt(c!.marketBalance.amount), "the residual reached the creator");
    assert.match((await cli(creator, "creator-funds", "--collect")).out, /^nothing to collect/);
    assert.equal(await pm(creator), before + BigInt(c!.marketBalance.amount), "collected once");
    assert.equal((await cli(creator, "creator-funds", market)).code, 2, "markets are named only with --collect");
  });

  it("challenged, voted by nobody, in council review: a member's signed act through resolve council; a non-member's refused", async () => {
    assert.equal((await cli(creator, "resolve", "propose", book, "--outcome", "1")).code, 0);
    const challenged = await cli(trader, "resolve", "challenge", book);
    assert.equal(challenged.code, 0, challenged.err);
    assert.match(challenged.out, /creator_proposal -> challenge .*\nchallenge -> human_voting/s);
    t.clock.advance(48 * HOUR + 1);
    accepted(await t.svc.services.venue.exchange.submit({ type: "advanceLifecycle" })); // the vote's end falls due
    assert.match((await cli(null, "resolve", "state", book)).out, /: council_review \(/);
    const member = generatePrivateKey();
    const appointed = await fetch(`${new URL(t.svc.baseUrl).origin}/admin/v1/council`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ members: [privateKeyToAccount(member).address] }),
    });
    assert.equal(appointed.status, 200, await appointed.text());

    const stranger = await cli(trader, "resolve", "council", book, "--decide", "1", "--member-key", generatePrivateKey());
    assert.equal(stranger.code, 1);
    assert.match(stranger.err, /403 FORBIDDEN \(NOT_COUNCIL_MEMBER\)/);
    assert.equal((await cli(trader, "resolve", "council", book, "--decide", "1", "--restart", "--member-key", member)).code, 2);
    assert.equal((await cli(trader, "resolve", "council", book, "--member-key", member)).code, 2);
    assert.match((await cli(null, "resolve", "state", book)).out, /: council_review \(/, "the refusals changed nothing");

    // Any agent's key relays it: the member's signature decides who acts.
    const voided = await cli(trader, "resolve", "council", book, "--decide", "void", "--member-key", member);
    assert.equal(voided.code, 0, voided.err);
    assert.match(voided.out, /council_review -> void \(/);
    assert.match((await cli(null, "resolve", "state", book)).out, /: void \(/);
  });
});
