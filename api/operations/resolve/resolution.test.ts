/**
 * Resolution over real HTTP against startService with a manual clock: a committed LMSR market created with a creator,
 * two agents trade, the creator proposes, a third agent challenges, three wallets vote (sealed ballots with public
 * commitments), the council is appointed by the operator and stays silent, the market resolves and every holder is
 * paid in the same command; then the claim, receipt and creator-fund routes. Bad input and bad timing are problems
 * with the right code that move nothing (balances, ballots and state compared before and after).
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { councilTypedData } from "../../domain/lifecycle/council";
import type { CatalogMarket } from "../../domain/markets/catalog-types";
import { accepted } from "../../platform/errors/engine-rejection";
import { createLifecycleMarket } from "../../../test/support/lifecycle-market";
import { apiClient, startTestService, stopTestService, type CallResult, type Json, type TestService } from "../../../test/support/service";

const PM = 1_000_000n;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ADMIN_TOKEN = "adm_resolution_test_token_0123456789";

describe("resolution: propose, challenge, vote, council, payouts, claims (HTTP)", () => {
  let t: TestService;
  const agents: Record<string, LocalAgent> = {};
  const call: Record<string, ReturnType<typeof apiClient>> = {};
  let market: CatalogMarket;
  const member = privateKeyToAccount(generatePrivateKey());

  const ok = (r: CallResult, status = 200) => assert.equal(r.status, status, JSON.stringify(r.json));
  const problem = (r: CallResult, status: number, code: string, reason?: string) => {
    assert.equal(r.status, status, JSON.stringify(r.json));
    assert.equal(r.json.code, code, JSON.stringify(r.json));
    if (reason) assert.equal(r.json.reason, reason, JSON.stringify(r.json));
  };
  const pm = async (who: string) => BigInt(((await call[who]!("GET", "/orderbook/balances")).json.balances as Json[]).find((b) => b.asset === "PM")!.available);
  const state = async () => (await call.alice!("GET", `/discover/markets/${market.address}/resolution-state`)).json;
  /** Everything a refused act could have moved: every agent's PM, the market's lifecycle. */
  const snapshot = async () => ({ pm: await Promise.all(Object.keys(agents).map(pm)), market: await state() });
  const unchanged = async (before: Json) => {
    const now = await snapshot();
    assert.deepEqual(now.pm, before.pm);
    const { now: _a, ...a } = now.market;
    const { now: _b, ...b } = before.market;
    assert.deepEqual(a, b);
  };
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${t.svc.baseUrl.replace(/\/api\/agent\/v1$/, "")}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const sign = (action: "decide" | "restart", session: number, outcome: string) =>
    member.signTypedData(
      councilTypedData(t.svc.ctx.config.CHAIN_ID, { market: market.address as Address, marketId: market.marketId!, session, action, outcome }),
    );
  const advance = async (ms: number) => {
    t.clock.advance(ms);
    // What the exchange's lifecycle timer does when a deadline falls due: one journaled advanceLifecycle.
    accepted(await t.svc.services.venue.exchange.submit({ type: "advanceLifecycle" }));
  };

  before(async () => {
    t = await startTestService({ PM_STARTING_GRANT: (1_000n * PM).toString(), ADMIN_TOKEN, WEBHOOKS_ALLOW_PRIVATE: "true" });
    for (const name of ["creator", "alice", "bob", "carol", "v1", "v2", "v3", "poor"]) {
      agents[name] = await createLocalAgent(t.svc.ctx.db, t.clock, { name: `res-${name}` });
      call[name] = apiClient(t, agents[name]!.apiKey);
      ok(await call[name]!("GET", "/orderbook/balances")); // opens the account with its grant
    }
    // Alice's webhook takes state changes and her payouts (nobody listens on port 9: deliveries stay queued).
    const sub = await call.alice!("POST", "/webhooks", { url: "http://127.0.0.1:9/hook", eventTypes: ["market.state_changed", "payout.credited"] });
    ok(sub, 201);
    market = await createLifecycleMarket(t.svc, { creator: agents.creator!.ledgerAccount as Address, closeTime: t.clock.now() + DAY, seed: 500n * PM });
    const put = await admin("PUT", "/council", { members: [member.address] });
    assert.equal(put.status, 200, await put.text());
  });
  after(async () => stopTestService(t));

  it("an open market: resolution-state names the creator's window; two agents trade", async () => {
    const s = await state();
    assert.equal(s.state, "open");
    assert.equal(s.bonds.creationBond, (50n * PM).toString());
    const creatorView = (await call.creator!("GET", `/discover/markets/${market.address}/resolution-state`)).json;
    const propose = (creatorView.availableActions as Json[]).find((a) => a.action === "propose")!;
    assert.equal(propose.allowed, true);
    assert.equal((s.availableActions as Json[]).find((a) => a.action === "propose")!.reason, "NOT_CREATOR");
    ok(await call.alice!("POST", "/trade/prepare", { market: market.address, outcome: 0, side: "buy", shares: (100n * PM).toString() }), 201);
    ok(await call.bob!("POST", "/trade/prepare", { market: market.address, outcome: 1, side: "buy", shares: (60n * PM).toString() }), 201);
  });

  it("refuses claims, a challenge and a council act before their stage, moving nothing", async () => {
    const before = await snapshot();
    const batch = await call.alice!("POST", "/claims/batch", { markets: [{ chainId: market.chainId, marketAddress: market.address }] });
    ok(batch);
    assert.equal(batch.json.claims[0].state, "SKIPPED");
    assert.equal(batch.json.claims[0].skippedReason, "NOT_CLAIMABLE_YET");
    assert.equal(batch.json.claims[0].amountAvailable, false);
    assert.equal(batch.json.claims[0].claimed, false);
    problem(await call.carol!("POST", "/resolve/challenge", { market: market.address }), 409, "CONFLICT", "WRONG_MARKET_STATE");
    const sig = await sign("decide", 1, "0");
    problem(
      await call.v1!("POST", "/resolve/council", { market: market.address, action: "decide", outcome: 0, session: 1, member: member.address, signature: sig }),
      409,
      "CONFLICT",
      "COUNCIL_NOT_OPEN",
    );
    problem(await call.alice!("POST", "/resolve/propose", { market: market.address, outcome: 0 }), 403, "FORBIDDEN", "NOT_CREATOR");
    problem(await call.creator!("POST", "/resolve/propose", { market: market.address, outcome: 5 }), 400, "INVALID_PAYLOAD");
    problem(await call.creator!("POST", "/resolve/propose", { market: market.address, outcome: "maybe" }), 400, "INVALID_PAYLOAD");
    problem(await call.alice!("POST", "/claims/batch", { markets: [] }), 400, "INVALID_PAYLOAD");
    problem(await call.bob!("POST", "/sweep/execute", { marketAddress: market.address, chainId: market.chainId }), 409, "CONFLICT", "MARKET_NOT_FINAL");
    const early = await call.creator!("POST", "/trade/creator-funds/collect", { marketAddresses: [market.address] });
    ok(early);
    assert.equal(early.json.collections[0].marketBalance.state, "SKIPPED");
    assert.equal(early.json.collections[0].marketBalance.skippedReason, "NOT_FINAL");
    await unchanged(before);
  });

  it("the creator proposes after close; a third agent challenges with a bond equal to the creation bond", async () => {
    await advance(DAY + HOUR);
    const p = await call.creator!("POST", "/resolve/propose", { market: market.address, outcome: 0 });
    ok(p);
    assert.equal(p.json.market.state, "creator_proposal");
    assert.equal(p.json.market.proposal.label, "YES");
    assert.ok(p.json.market.deadlines.challengeBy);
    const carolBefore = await pm("carol");
    const c = await call.carol!("POST", "/resolve/challenge", { market: market.address });
    ok(c);
    assert.equal(c.json.market.state, "human_voting");
    assert.equal(c.json.market.challenger, agents.carol!.ledgerAccount);
    assert.equal(carolBefore - (await pm("carol")), 50n * PM);
    const before = await snapshot();
    problem(await call.bob!("POST", "/resolve/challenge", { market: market.address }), 409, "CHALLENGE_WINDOW_CLOSED");
    problem(await call.creator!("POST", "/resolve/propose", { market: market.address, outcome: 1 }), 409, "CONFLICT");
    await unchanged(before);
  });

  it("three wallets cast staked, sealed ballots; a second ballot and a ballot without stake are refused", async () => {
    const commitments: string[] = [];
    for (const [who, outcome] of [
      ["v1", 0],
      ["v2", 0],
      ["v3", 1],
    ] as const) {
      const before = await pm(who);
      const r = await call[who]!("POST", "/resolve/vote", { market: market.address, outcome });
      ok(r);
      assert.equal(before - (await pm(who)), 10n * PM);
      assert.match(r.json.ballot.commitment, /^0x[0-9a-f]{64}$/);
      commitments.push(r.json.ballot.commitment);
    }
    assert.equal(new Set(commitments).size, 3);
    const s = await state();
    assert.equal(s.vote.ballots, 3);
    assert.equal(JSON.stringify(s).includes('"outcome":1,'), false, "no ballot outcome shows before the deadline");
    // The poor voter's PM is all reserved by a resting bid: the stake does not fit.
    const book = ((await call.poor!("GET", "/discover/markets?pricingModel=ORDERBOOK&pageSize=1")).json.markets as Json[])[0]!;
    ok(
      await call.poor!("POST", "/orderbook/place-order", {
        market: book.address,
        outcome: 0,
        side: "buy",
        priceBps: "100",
        size: "99500000000",
        timeInForce: "GTC",
      }),
    );
    const before = await snapshot();
    problem(await call.v1!("POST", "/resolve/vote", { market: market.address, outcome: 1 }), 409, "CONFLICT", "ALREADY_VOTED");
    problem(await call.poor!("POST", "/resolve/vote", { market: market.address, outcome: 0 }), 409, "INSUFFICIENT_BALANCE");
    problem(await call.v2!("POST", "/resolve/vote", { market: market.address, outcome: 2 }), 400, "INVALID_PAYLOAD");
    const sig = await sign("decide", 1, "1");
    problem(
      await call.v1!("POST", "/resolve/council", { market: market.address, action: "decide", outcome: 1, session: 1, member: member.address, signature: sig }),
      409,
      "CONFLICT",
      "COUNCIL_NOT_OPEN",
    );
    const stranger = privateKeyToAccount(generatePrivateKey());
    const forged = await stranger.signTypedData(
      councilTypedData(t.svc.ctx.config.CHAIN_ID, {
        market: market.address as Address,
        marketId: market.marketId!,
        session: 1,
        action: "decide",
        outcome: "1",
      }),
    );
    problem(
      await call.v1!("POST", "/resolve/council", {
        market: market.address,
        action: "decide",
        outcome: 1,
        session: 1,
        member: member.address,
        signature: forged,
      }),
      403,
      "FORBIDDEN",
      "BAD_SIGNATURE",
    );
    await unchanged(before);
  });

  it("the vote ends, the council stays silent: resolved to the unique result, every holder paid at once", async () => {
    const alice0 = await pm("alice");
    const bob0 = await pm("bob");
    await advance(2 * DAY);
    let s = await state();
    assert.equal(s.state, "council_review");
    await advance(DAY);
    s = await state();
    assert.equal(s.state, "resolved");
    assert.equal(s.verdict.label, "YES");
    const fee = (100n * PM * BigInt(market.winningsExitFeeBps)) / 10_000n;
    assert.equal((await pm("alice")) - alice0, 100n * PM - fee);
    assert.equal(await pm("bob"), bob0);
    // The events: every state change of the market and alice's payout were queued to her webhook, in journal order.
    // Rows are published after their page is projected, off the request path: wait (bounded) for the last one.
    await t.svc.services.resolution.projection.sync();
    const deliveries = async () =>
      (
        await t.svc.ctx.db.query<{ event_type: string; payload: string }>(`SELECT event_type, payload::text FROM api_webhook_deliveries ORDER BY enqueue_seq`)
      ).map((d) => ({ type: d.event_type, data: JSON.parse(d.payload).data as Json }));
    let queued = await deliveries();
    for (let i = 0; i < 100 && !queued.some((d) => d.type === "payout.credited"); i++) {
      await new Promise((r) => setTimeout(r, 50));
      queued = await deliveries();
    }
    const states = queued.filter((d) => d.type === "market.state_changed" && d.data.marketId === String(market.marketId)).map((d) => d.data.state);
    assert.deepEqual(states, ["open", "closed", "creator_proposal", "challenge", "human_voting", "council_review", "resolved"]);
    const previous = queued.filter((d) => d.type === "market.state_changed" && d.data.marketId === String(market.marketId)).map((d) => d.data.previous);
    assert.deepEqual(previous, [null, ...states.slice(0, -1)], "each event names the state it left, across projection pages");
    const payout = queued.find((d) => d.type === "payout.credited");
    assert.ok(payout, "alice's payout.credited is queued");
    assert.equal(payout.data.amount, (100n * PM - fee).toString());
    assert.equal(payout.data.account, agents.alice!.ledgerAccount);
    // Challenger wrong: its bond is split; correct voters get their stake back and a reward.
    assert.ok((await pm("v1")) > 1_000n * PM);
    assert.ok((await pm("v3")) < 1_000n * PM);
  });

  it("claims: the payout is listed as credited; batch and receipts wait for the batch that corroborates it", async () => {
    const a = await call.alice!("GET", "/claims/available");
    ok(a);
    assert.equal(a.json.count, 1);
    const item = a.json.payouts[0];
    assert.equal(item.marketAddress, market.address);
    assert.equal(item.status, "claimed");
    assert.equal(item.amountSource, "ledger");
    assert.equal(item.claimed, true);
    assert.equal(BigInt(item.amount), 100n * PM - (100n * PM * BigInt(market.winningsExitFeeBps)) / 10_000n);
    assert.ok(a.json.projection && a.json.projection.source === "indexer");
    // This service publishes no batches: no corroborated receipt, so never COMMITTED_SETTLED.
    const batch = await call.alice!("POST", "/claims/batch", {
      markets: [
        { chainId: market.chainId, marketAddress: market.address },
        { chainId: market.chainId, marketAddress: "0x000000000000000000000000000000000000dead" },
      ],
    });
    ok(batch);
    assert.equal(batch.json.claims[0].skippedReason, "NOT_CLAIMABLE_YET");
    assert.equal(batch.json.claims[1].skippedReason, "MARKET_NOT_FOUND");
    const r = await call.alice!("GET", "/claims/receipts");
    ok(r);
    assert.equal(r.json.receipts.length, 1);
    assert.equal(r.json.receipts[0].authority, "unavailable");
    assert.equal(r.json.receipts[0].unavailableReason, "RECEIPT_MISSING");
    assert.equal(r.json.receipts[0].movementKey, item.id);
    const sim = await call.alice!("POST", "/claims/simulate", { markets: [{ chainId: market.chainId, marketAddress: market.address }] });
    ok(sim);
    assert.equal(sim.json.items.length, 1);
    const sweep = await call.alice!("POST", "/claims/sweep", {});
    ok(sweep);
    assert.equal(sweep.json.totalCount, 1);
    problem(await call.alice!("GET", "/claims/available?limit=201"), 400, "INVALID_PAYLOAD");
  });

  it("creator funds: the residual is collectable by the creator only; a sweep afterwards finds it swept", async () => {
    const f = await call.creator!("GET", "/trade/creator-funds");
    ok(f);
    const entry = (f.json.creatorFunds.markets as Json[]).find((m) => m.marketAddress === market.address)!;
    assert.equal(entry.marketBalance.status, "claimable");
    assert.equal(entry.bond.status, "returned");
    const residual = BigInt(entry.marketBalance.amount);
    assert.ok(residual > 0n);
    const other = await call.alice!("POST", "/trade/creator-funds/collect", { marketAddresses: [market.address] });
    ok(other);
    assert.equal(other.json.collections[0].marketBalance.state, "SKIPPED");
    const before = await pm("creator");
    const c = await call.creator!("POST", "/trade/creator-funds/collect", {});
    ok(c);
    assert.equal(c.json.collections[0].marketBalance.state, "COLLECTED");
    assert.equal((await pm("creator")) - before, residual);
    const s = await call.bob!("POST", "/sweep/execute", { marketAddress: market.address, chainId: market.chainId });
    ok(s);
    assert.equal(s.json.completion, "already_swept");
    assert.equal(s.json.recipient, agents.creator!.ledgerAccount);
  });

  it("a proposal after creatorResolveBy is CREATOR_WINDOW_ELAPSED; a challenge after challengeBy is CHALLENGE_WINDOW_CLOSED", async () => {
    const creator = agents.creator!.ledgerAccount as Address;
    const late = await createLifecycleMarket(t.svc, { creator, closeTime: t.clock.now() + HOUR, seed: 50n * PM, title: "late creator" });
    const timely = await createLifecycleMarket(t.svc, { creator, closeTime: t.clock.now() + HOUR, seed: 50n * PM, title: "unchallenged" });
    await advance(2 * HOUR);
    ok(await call.creator!("POST", "/resolve/propose", { market: timely.address, outcome: 1 }));
    await advance(2 * DAY + HOUR);
    const before = await snapshot();
    problem(await call.creator!("POST", "/resolve/propose", { market: late.address, outcome: 0 }), 409, "CREATOR_WINDOW_ELAPSED");
    problem(await call.carol!("POST", "/resolve/challenge", { market: timely.address }), 409, "CHALLENGE_WINDOW_CLOSED");
    await unchanged(before);
    const pending = await call.alice!("GET", "/discover/markets/pending-resolution?limit=100");
    ok(pending);
    assert.ok(
      (pending.json.markets as Json[]).some((m) => m.marketAddress === late.address),
      JSON.stringify(pending.json),
    );
    const keeper = await call.alice!("POST", "/resolve/declare-mia", { market: late.address });
    assert.ok(keeper.status === 200 || keeper.json.reason === "KEEPER_WINDOW_CLOSED", JSON.stringify(keeper.json));
  });
  it("POST /sweep sweeps the caller's named final markets (swept, nothing_to_sweep, already_swept) or every one with a residual; a bad batch moves nothing", async () => {
    const creator = agents.creator!.ledgerAccount as Address;
    const pool = await createLifecycleMarket(t.svc, { creator, closeTime: t.clock.now() + HOUR, seed: 40n * PM, title: "batch sweep pool" });
    const book = await createLifecycleMarket(t.svc, { creator, closeTime: t.clock.now() + HOUR, pricing: "ORDERBOOK", title: "batch sweep book" });
    const open = await createLifecycleMarket(t.svc, { creator, closeTime: t.clock.now() + 10 * DAY, seed: 40n * PM, title: "batch sweep open" });
    await advance(2 * HOUR);
    ok(await call.creator!("POST", "/resolve/propose", { market: pool.address, outcome: 0 }));
    ok(await call.creator!("POST", "/resolve/propose", { market: book.address, outcome: 1 }));
    await advance(2 * DAY + HOUR);
    const chainId = market.chainId;
    const funds = async () => (await call.creator!("GET", "/trade/creator-funds")).json.creatorFunds.markets as Json[];
    const residual = BigInt((await funds()).find((m) => m.marketAddress === pool.address)!.marketBalance.amount);
    assert.ok(residual > 0n);

    // Refused batches: checked before anything moves.
    const before = await snapshot();
    problem(await call.creator!("POST", "/sweep", { chainId, marketAddresses: [pool.address, open.address] }), 409, "CONFLICT", "MARKET_NOT_FINAL");
    problem(await call.alice!("POST", "/sweep", { chainId, marketAddresses: [pool.address] }), 403, "FORBIDDEN", "NOT_CREATOR");
    problem(await call.creator!("POST", "/sweep", { chainId, marketAddresses: [] }), 400, "INVALID_PAYLOAD");
    problem(await call.creator!("POST", "/sweep", { chainId, marketAddresses: [pool.address, pool.address] }), 400, "INVALID_PAYLOAD");
    problem(
      await call.creator!("POST", "/sweep", { chainId, marketAddresses: Array.from({ length: 101 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}`) }),
      400,
      "INVALID_PAYLOAD",
    );
    problem(await call.creator!("POST", "/sweep", { marketAddresses: [pool.address] }), 400, "INVALID_PAYLOAD");
    problem(await call.creator!("POST", "/sweep", { chainId: chainId + 1, marketAddresses: [pool.address] }), 404, "MARKET_NOT_FOUND");
    await unchanged(before);
    assert.equal((await funds()).find((m) => m.marketAddress === pool.address)!.marketBalance.status, "claimable");

    // Named: one answer per market, in order, with /sweep/execute's shapes.
    const pmBefore = await pm("creator");
    const r = await call.creator!("POST", "/sweep", { chainId, marketAddresses: [pool.address, book.address, market.address] });
    ok(r);
    assert.equal(r.json.walletAddress, creator);
    assert.equal(r.json.hasMore, false);
    const [swept, nothing, already] = r.json.sweeps as Json[];
    assert.deepEqual(
      [swept.completion, swept.marketAddress, swept.recipient, swept.amountSwept, swept.source],
      ["swept", pool.address, creator, residual.toString(), "receipt_event"],
    );
    assert.deepEqual(
      [nothing.completion, nothing.marketAddress, nothing.txHash, nothing.amountSwept, nothing.source],
      ["nothing_to_sweep", book.address, null, "0", "no_residual"],
    );
    assert.equal(already.completion, "already_swept");
    assert.equal(already.source, "chain_event");
    assert.ok(BigInt(already.amountSwept) > 0n);
    assert.equal((await pm("creator")) - pmBefore, residual);
    // Again: the same market is now already swept, and nothing moves.
    const again = await call.creator!("POST", "/sweep", { chainId, marketAddresses: [pool.address] });
    ok(again);
    assert.deepEqual([again.json.sweeps[0].completion, again.json.sweeps[0].amountSwept], ["already_swept", residual.toString()]);
    assert.equal((await pm("creator")) - pmBefore, residual);

    // Unnamed: every final market of the caller's that still holds a residual (the earlier test's unchallenged one).
    const left = (await funds()).filter((m) => m.marketBalance.status === "claimable");
    const all = await call.creator!("POST", "/sweep", { chainId });
    ok(all);
    assert.deepEqual(
      (all.json.sweeps as Json[]).map((x) => [x.marketAddress, x.completion, x.amountSwept]),
      left.map((m) => [m.marketAddress, "swept", m.marketBalance.amount]),
    );
    assert.ok(left.length >= 1);
    const none = await call.creator!("POST", "/sweep", { chainId });
    ok(none);
    assert.deepEqual(none.json.sweeps, []);
  });
});
