/**
 * The demo markets at start-up: created by the demo creator agent through the negotiate flow (a deployed
 * negotiation per market, its BOND_LOCK and MARKET_SEED in the journal, the factory-stamped fees), listed under the
 * demo creator (whatever the configured write ceiling), and not created again by a restart; accepted terms left undeployed by a stopped start are deployed by
 * the next one rather than proposed again.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { readAll } from "../../../relayer/journal/store";
import { apiClient, restartTestService, startTestService, stopTestService, type Json, type TestService } from "../../../test/support/service";
import { DEMO_CREATOR_NAME, createDemoMarkets } from "./demo-creator";
import { demoMarkets } from "../markets/seed/demo-markets";

const DAY = 86_400_000;

describe("the demo creator", () => {
  let t: TestService;

  before(async () => {
    // A write ceiling far below the demo creator's 24 writes: the operator's start-up caller is not charged to it.
    t = await startTestService({ INDEXER_ENABLED: "false", RATE_LIMIT_WRITE_PER_MINUTE: "2" });
  });
  after(async () => stopTestService(t));

  const creatorAccount = async () => {
    const [row] = await t.svc.ctx.db.query<{ ledger_account: string }>(
      `SELECT ledger_account FROM api_agents WHERE registration_path = 'demo' AND name_key = $1`,
      [DEMO_CREATOR_NAME],
    );
    assert.ok(row, "the demo creator agent exists");
    return row.ledger_account.toLowerCase();
  };
  const journalOps = async () => {
    const ops: Json[] = [];
    for await (const e of readAll(t.svc.ctx.db)) ops.push(...(JSON.parse(e.ops) as Json[]));
    return ops;
  };

  it("creates every demo market through the negotiate flow, under its own account", async () => {
    const account = await creatorAccount();
    const specs = demoMarkets(t.clock.now());
    const listed = (await apiClient(t)("GET", `/discover/markets?creator=${account}&pageSize=100`)).json.markets as Json[];
    assert.deepEqual(listed.map((m) => m.externalId).sort(), specs.map((s) => s.externalId).sort());
    const negotiations = await t.svc.ctx.db.query<{ external_id: string; status: string; market_id: string }>(
      `SELECT external_id, status, market_id::text FROM market_negotiations WHERE creator = $1`,
      [account],
    );
    assert.equal(negotiations.length, specs.length, "one negotiation per demo market");
    assert.ok(negotiations.every((n) => n.status === "deployed"));
    const ops = await journalOps();
    for (const m of listed) {
      assert.ok(
        ops.some((o) => o.type === "BOND_LOCK" && String(o.marketId) === m.marketId && String(o.account).toLowerCase() === account),
        `BOND_LOCK of ${m.externalId}`,
      );
      if (m.pricingModel === "automated")
        assert.ok(
          ops.some((o) => o.type === "MARKET_SEED" && String(o.marketId) === m.marketId),
          `MARKET_SEED of ${m.externalId}`,
        );
    }
    const rep = (await t.svc.ctx.db.query<{ tier_override: string }>(`SELECT tier_override FROM market_creators WHERE creator = $1`, [account]))[0];
    assert.equal(rep?.tier_override, "partner", "the operator's grant, as any creator could get it");
  });

  it("creates nothing again after a restart", async () => {
    const before = (await journalOps()).length;
    t = await restartTestService(t);
    assert.equal((await journalOps()).length, before, "no new journal operation");
    const rows = await t.svc.ctx.db.query(`SELECT 1 FROM market_negotiations`);
    assert.equal(rows.length, demoMarkets(t.clock.now()).length);
  });

  it("deploys accepted terms a stopped start left behind instead of proposing again", async () => {
    const account = await creatorAccount();
    const spec = { ...demoMarkets(t.clock.now())[0]!, externalId: "demo:left-accepted", closeTime: t.clock.now() + 10 * DAY };
    // A start that stopped after accept: the negotiation is accepted, nothing deployed.
    const [key] = await t.svc.ctx.db.query<{ id: string }>(`SELECT id FROM api_agents WHERE name_key = $1`, [DEMO_CREATOR_NAME]);
    let proposes = 0;
    let stopped = false;
    // The creator's calls go over real HTTP; the first run stops before prepare-deploy, like a process killed mid-way.
    const fetch = async (path: string, init: RequestInit) => {
      if (path === "/negotiate/propose") proposes++;
      if (path.endsWith("/prepare-deploy") && !stopped) {
        stopped = true;
        throw new Error("stopped");
      }
      return globalThis.fetch(`${t.svc.baseUrl}${path}`, init);
    };
    const deps = { db: t.svc.ctx.db, clock: t.clock, chainId: t.svc.ctx.config.CHAIN_ID, venue: t.svc.services.venue };
    await assert.rejects(createDemoMarkets({ ...deps, fetch }, [spec]), /stopped/);
    const [left] = await t.svc.ctx.db.query<{ status: string }>(`SELECT status FROM market_negotiations WHERE agent_id = $1 AND external_id = $2`, [
      key!.id,
      spec.externalId,
    ]);
    assert.equal(left?.status, "accepted");
    const done = await createDemoMarkets({ ...deps, fetch }, [spec]);
    assert.equal(proposes, 1, "the accepted terms were deployed, not proposed again");
    assert.equal(done[0]?.created, true);
    const listed = (await apiClient(t)("GET", `/discover/markets?creator=${account}&pageSize=100`)).json.markets as Json[];
    assert.ok(listed.some((m) => m.externalId === "demo:left-accepted" && m.address === done[0]?.address));
  });
});
