/**
 * Market creation on the committed lane over real HTTP (PGlite, or Postgres with DATABASE_URL): a fresh agent runs
 * preflight → propose → accept → prepare-deploy → commit-deploy for an LMSR binary and an ORDERBOOK market, sees each
 * listed and trades it; every bad input is a problem that locks nothing; N concurrent creations never exceed the
 * concurrent limit; the tools are on MCP (accept/reject are REST-only).
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Address } from "viem";
import { COLLATERAL_ASSET } from "../../../decoder";
import { createLocalAgent } from "../auth/local-agents";
import { creationStateOf } from "./creation-state";
import { apiClient, startTestService, stopTestService, type Json, type TestService } from "../../../test/support/service";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PM = 1_000_000n;

describe(`market creation, committed lane, over HTTP (${process.env.DATABASE_URL ? "Postgres" : "PGlite"})`, () => {
  let t: TestService;
  let agent: Awaited<ReturnType<typeof createLocalAgent>>;
  let api: ReturnType<typeof apiClient>;
  const request = (over: Json = {}): Json => ({
    externalId: `ext-${Math.random().toString(36).slice(2)}`,
    title: "  will the   committed lane create markets? ",
    description: "Resolves YES when this test passes.",
    category: "TECH",
    pricingModel: "automated",
    collateral: "PM",
    closeTime: new Date(t.clock.now() + 30 * DAY).toISOString(),
    seed: String(100n * PM),
    resolutionSource: { type: "creator", note: "the test's own assertion" },
    ...over,
  });
  /** The operator's admin API of the running service (docs/admin.md). */
  const admin = async (method: string, path: string, body?: unknown) => {
    const token = readFileSync(join(t.dir, "admin-token"), "utf8").trim();
    const res = await fetch(`http://127.0.0.1:${t.svc.port}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as Json;
  };
  const pmOf = (account: string) => t.svc.services.venue.exchange.engine.balance(account as Address, COLLATERAL_ASSET);

  /** preflight → propose → accept → prepare-deploy → commit-deploy; answers each step's body. */
  async function create(call: ReturnType<typeof apiClient>, body: Json) {
    const pre = await call("POST", "/negotiate/preflight", body);
    assert.equal(pre.status, 200, JSON.stringify(pre.json));
    assert.deepEqual(pre.json.failures, [], JSON.stringify(pre.json.failures));
    const proposed = await call("POST", "/negotiate/propose", body);
    assert.equal(proposed.status, 201, JSON.stringify(proposed.json));
    const id = proposed.json.id as string;
    const acc = await call("POST", `/negotiate/${id}/accept`, {});
    assert.equal(acc.status, 200, JSON.stringify(acc.json));
    const prepared = await call("POST", `/negotiate/${id}/prepare-deploy`, {});
    assert.equal(prepared.status, 200, JSON.stringify(prepared.json));
    const committed = await call("POST", `/negotiate/${id}/commit-deploy`, {});
    assert.equal(committed.status, 201, JSON.stringify(committed.json));
    return { proposed: proposed.json, prepared: prepared.json, committed: committed.json, id };
  }

  before(async () => {
    t = await startTestService({ SEED_DEMO_MARKETS: "false", FILL_ALLOWANCE_FREE_PER_PERIOD: "1000" });
    agent = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "creator-1" });
    api = apiClient(t, agent.apiKey);
  });
  after(async () => stopTestService(t));

  it("creates an LMSR binary market: terms, lock, listing, trading; a repeated commit-deploy creates nothing", async () => {
    const body = request({ externalId: "btc-lmsr" });
    await api("GET", "/me");
    await api("POST", "/negotiate/preflight", body); // opens the agent's ledger account with its starting grant
    const before = pmOf(agent.ledgerAccount).available;
    const { proposed, prepared, committed, id } = await create(api, body);
    const terms = proposed.terms as Json;
    assert.equal(terms.title, "Will the committed lane create markets?", "normalised title");
    assert.equal(terms.bond.amount, String(10n * PM), "clamp(100 PM × 0.1, 10, 1000) = 10 PM");
    assert.equal(terms.lock.pm, String(110n * PM));
    assert.equal(terms.fees.takerFeeBps, 0);
    assert.equal(typeof terms.fees.sellExitFeeBps, "number");
    assert.match(proposed.termsHash, /^0x[0-9a-f]{64}$/);
    assert.equal(prepared.lock.pm, String(110n * PM));
    assert.deepEqual(prepared.transactions, []);
    assert.equal(committed.market.marketId, prepared.marketId);
    assert.equal(committed.market.address, prepared.address);
    assert.equal(pmOf(agent.ledgerAccount).available, before - 110n * PM, "seed + bond left the creator's available PM");

    const listed = await api("GET", `/discover/markets?creator=${agent.ledgerAccount}`);
    assert.deepEqual(
      listed.json.markets.map((m: Json) => m.address),
      [committed.market.address],
    );
    const exists = await api("GET", "/discover/markets/exists?externalId=btc-lmsr");
    assert.equal(exists.json.exists, true);

    const again = await api("POST", `/negotiate/${id}/commit-deploy`, {});
    assert.equal(again.status, 201);
    assert.deepEqual(again.json, committed);
    assert.equal(pmOf(agent.ledgerAccount).available, before - 110n * PM, "no second lock");

    const trader = apiClient(t, (await createLocalAgent(t.svc.ctx.db, t.clock, { name: "trader-1" })).apiKey);
    const trade = { market: committed.market.address, outcome: 0, side: "buy", shares: String(5n * PM), slippageBps: 500 };
    const q = await trader("POST", "/trade/quote", trade);
    assert.equal(q.status, 200, JSON.stringify(q.json));
    const p = await trader("POST", "/trade/prepare", { ...trade, maxCost: q.json.maxCost });
    assert.equal(p.status, 201, JSON.stringify(p.json));
  });

  it("creates an ORDERBOOK market and trades it", async () => {
    const { committed, proposed } = await create(api, request({ externalId: "ob-1", pricingModel: "ORDERBOOK", seed: undefined }));
    assert.equal(proposed.terms.bond.amount, String(10n * PM), "an order book pays the minimum bond");
    const maker = apiClient(t, (await createLocalAgent(t.svc.ctx.db, t.clock, { name: "maker-1" })).apiKey);
    const taker = apiClient(t, (await createLocalAgent(t.svc.ctx.db, t.clock, { name: "taker-1" })).apiKey);
    const placed = await maker("POST", "/orderbook/place-order", {
      market: committed.market.address,
      outcome: 0,
      side: "buy",
      priceBps: "5500",
      size: String(PM),
    });
    assert.equal(placed.status, 200, JSON.stringify(placed.json));
    const took = await taker("POST", "/orderbook/place-order", {
      market: committed.market.address,
      outcome: 1,
      side: "buy",
      priceBps: "4500",
      size: String(PM),
      timeInForce: "IOC",
    });
    assert.equal(took.status, 200, JSON.stringify(took.json));
    assert.equal(took.json.orders[0].status, "filled", JSON.stringify(took.json));
  });

  it("answers every failed check at once, and each refusal locks nothing", async () => {
    const before = pmOf(agent.ledgerAccount);
    const pre = await api(
      "POST",
      "/negotiate/preflight",
      request({
        externalId: "btc-lmsr",
        closeTime: t.clock.now() - HOUR,
        collateral: "DOGE",
        seed: String(1_000_000n * PM),
        resolutionSource: { type: "oracle" },
        category: "NOPE",
      }),
    );
    assert.equal(pre.status, 200);
    assert.equal(pre.json.ok, false);
    const codes = (pre.json.failures as Json[]).map((f) => `${f.code}:${f.field}`).sort();
    assert.deepEqual(codes, [
      "CLOSE_TIME_OUT_OF_RANGE:closeTime",
      "COLLATERAL_NOT_SERVED:collateral",
      "EXTERNAL_ID_TAKEN:externalId",
      "INSUFFICIENT_BALANCE:seed",
      "INVALID_PAYLOAD:category",
      "RESOLUTION_SOURCE_UNSUPPORTED:resolutionSource",
      "SEED_ABOVE_LIMIT:seed",
    ]);
    const cases: [Json, string, number][] = [
      [{ externalId: "btc-lmsr" }, "EXTERNAL_ID_TAKEN", 409],
      [{ seed: String(3_000n * PM) }, "SEED_ABOVE_LIMIT", 400],
      [{ closeTime: new Date(t.clock.now() - DAY).toISOString() }, "CLOSE_TIME_OUT_OF_RANGE", 400],
      [{ collateral: "0x00000000000000000000000000000000000000ff" }, "COLLATERAL_NOT_SERVED", 400],
      [{ outcomes: ["A", "B", "C"] }, "MARKET_SHAPE_UNSUPPORTED", 400],
      [{ title: "See http://localhost/x for a tiny title" }, "CONTENT_BLOCKED", 400],
    ];
    for (const [over, code, status] of cases) {
      const r = await api("POST", "/negotiate/propose", request(over));
      assert.equal(r.status, status, `${code}: ${JSON.stringify(r.json)}`);
      assert.equal(r.json.code, code);
      assert.ok((r.json.errors as Json[]).some((e) => e.code === code));
    }
    const after = pmOf(agent.ledgerAccount);
    assert.deepEqual(after, before, "no refusal moved or locked PM");
  });

  it("a closed gate refuses: suspended tier, revoked slot, a full cohort (set through the admin API)", async () => {
    const a = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "gated" });
    const call = apiClient(t, a.apiKey);
    await admin("PUT", `/creators/${a.agentId}/tier`, { tier: "suspended" });
    let r = await call("POST", "/negotiate/propose", request());
    assert.equal(r.status, 403);
    assert.equal(r.json.code, "CREATION_NOT_ALLOWED");
    assert.equal(r.json.reason, "tier_suspended");
    await admin("PUT", `/creators/${a.agentId}/tier`, { tier: null });
    await admin("DELETE", `/creators/${a.agentId}/slot`);
    r = await call("POST", "/negotiate/propose", request());
    assert.equal(r.json.reason, "slot_revoked");
    await admin("PUT", `/creators/${a.agentId}/slot`);
    assert.equal((await call("POST", "/negotiate/preflight", request())).json.ok, true, "a granted slot opens the gate again");
    const fresh = apiClient(t, (await createLocalAgent(t.svc.ctx.db, t.clock, { name: "late-comer" })).apiKey);
    const cohort = await admin("PUT", "/creators/cohort", { limit: 0 });
    r = await fresh("POST", "/negotiate/propose", request());
    assert.equal(r.json.code, "CREATION_NOT_ALLOWED");
    assert.equal(r.json.reason, "cohort_full");
    const me = await fresh("GET", "/me");
    assert.equal(me.json.reputation.tierGates.canCreate, false);
    assert.equal(me.json.reputation.creation.slots.limit, 0);
    const catalog = await fresh("GET", "/catalog.json");
    assert.equal(catalog.json.creatorCapacity.slots.limit, 0);
    assert.equal(catalog.json.creatorCapacity.status, "closed");
    await admin("PUT", "/creators/cohort", { limit: 1_000 });
    assert.ok(cohort.occupied >= 2, "the first creator and the granted one hold slots");
    const shown = await admin("GET", `/creators/${a.agentId}`);
    assert.equal(shown.slotState, "held");
  });

  it("the flow's state in memory keeps its own writes and drops on any other write", async () => {
    const a = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "mirrored" });
    const call = apiClient(t, a.apiKey);
    const state = creationStateOf(t.svc.ctx.db)!;
    await call("POST", "/negotiate/preflight", request());
    const drops = state.drops;
    await create(call, request({ externalId: "mirror-1", pricingModel: "ORDERBOOK", seed: undefined }));
    assert.equal(state.drops, drops, "the flow's own rows (negotiations, listing) keep the mirror");
    const again = await call("POST", "/negotiate/propose", request({ externalId: "mirror-1", pricingModel: "ORDERBOOK", seed: undefined }));
    assert.equal(again.json.code, "EXTERNAL_ID_TAKEN", "the mirror holds the listing it wrote");
    // A write the flow did not make (an operator's SQL) is seen by the very next step.
    await t.svc.ctx.db.query(`UPDATE market_creators SET tier_override = 'suspended' WHERE creator = $1`, [a.ledgerAccount.toLowerCase()]);
    assert.equal(state.drops, drops + 1);
    const r = await call("POST", "/negotiate/propose", request());
    assert.equal(r.json.reason, "tier_suspended", JSON.stringify(r.json));
  });

  it("concurrent creations never exceed the concurrent limit", async () => {
    const a = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "rusher" });
    const call = apiClient(t, a.apiKey);
    const rep = await call("GET", "/discover/reputation");
    assert.equal(rep.json.creatorTier, "new");
    const limit = rep.json.creation.effectiveConcurrentLimit as number;
    const ids: string[] = [];
    for (let i = 0; i < limit + 3; i++) {
      const p = await call("POST", "/negotiate/propose", request({ externalId: `rush-${i}`, pricingModel: "ORDERBOOK", seed: undefined }));
      assert.equal(p.status, 201, JSON.stringify(p.json));
      ids.push(p.json.id);
    }
    const results = await Promise.all(
      ids.map(async (id) => {
        const acc = await call("POST", `/negotiate/${id}/accept`, {});
        if (acc.status !== 200) return acc.json.code as string;
        const c = await call("POST", `/negotiate/${id}/commit-deploy`, {});
        return c.status === 201 ? "deployed" : (c.json.code as string);
      }),
    );
    assert.equal(results.filter((r) => r === "deployed").length, limit, JSON.stringify(results));
    assert.ok(results.filter((r) => r !== "deployed").every((r) => r === "CONCURRENT_MARKET_LIMIT"));
    const after = await call("GET", "/discover/reputation");
    assert.equal(after.json.creation.activeMarkets, limit);
    assert.equal(after.json.creation.remaining, 0);
  });

  it("rejects terms; accept after reject is refused; scopes gate the flow", async () => {
    const p = await api("POST", "/negotiate/propose", request());
    const rej = await api("POST", `/negotiate/${p.json.id}/reject`, {});
    assert.equal(rej.json.status, "rejected");
    const acc = await api("POST", `/negotiate/${p.json.id}/accept`, {});
    assert.equal(acc.json.code, "NEGOTIATION_STATE");
    const reader = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "reader", tier: "read-only" });
    const r = await apiClient(t, reader.apiKey)("POST", "/negotiate/preflight", request());
    assert.equal(r.status, 403);
    assert.equal((await api("POST", "/negotiate/00000000-0000-4000-8000-000000000000/accept", {})).json.code, "NEGOTIATION_NOT_FOUND");
  });

  it("serves the flow over MCP, except accept and reject", async () => {
    const client = new Client({ name: "creation-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(t.svc.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${agent.apiKey}` } } }));
    try {
      const names = (await client.listTools()).tools.map((x) => x.name);
      for (const n of [
        "svc_negotiate_preflight",
        "svc_negotiate_propose",
        "svc_negotiate_prepare_deploy",
        "svc_negotiate_commit_deploy",
        "svc_get_resolution_sources",
        "svc_get_reputation",
      ])
        assert.ok(names.includes(n), n);
      assert.ok(!names.some((n) => /accept|reject/.test(n)));
      const r = await client.callTool({ name: "svc_negotiate_preflight", arguments: request({ externalId: "btc-lmsr" }) });
      const sc = r.structuredContent as Json;
      assert.equal(sc.ok, false);
      assert.deepEqual(
        (sc.failures as Json[]).map((f) => f.code),
        ["EXTERNAL_ID_TAKEN"],
      );
    } finally {
      await client.close();
    }
  });
});
