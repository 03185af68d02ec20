/**
 * Time on a local chain, over real HTTP against a real Hardhat node: POST /admin/v1/time/advance moves the chain's
 * block time and the service's clock by the same amount, runs a GTD expiry that came due at its own instant (journaled
 * with that `at`), GET /time follows, the offset survives a restart, and time never goes back. On a live chain the
 * route is absent and the CLI refuses.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createLocalAgent } from "../../api/domain/auth/local-agents";
import { startLocalChain } from "../stack/chain";
import { stopChild, type Child } from "../stack/children";
import { freePort } from "../../test/support/ports";
import { apiClient, restartTestService, startTestService, stopTestService, type Json, type TestService } from "../../test/support/service";
import { chainHead } from "../../api/domain/dev-chain/chain-time";
import { parseDuration } from "../../api/domain/dev-chain/duration";
import { runAdmin } from "../admin";

const HOUR = 3_600_000;

async function adminCall(t: TestService, method: string, path: string, body?: unknown) {
  const token = readFileSync(join(t.dir, "admin-token"), "utf8").trim();
  const res = await fetch(`http://127.0.0.1:${t.svc.port}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
}

describe("time advance on a local chain", () => {
  let chain: Child;
  let chainPort: number;
  let t: TestService;
  before(async () => {
    chainPort = await freePort();
    chain = await startLocalChain({ port: chainPort, chainId: 8453 });
    t = await startTestService({ CHAIN_PORT: String(chainPort), INDEXER_ENABLED: "false" });
  });
  after(async () => {
    await stopTestService(t);
    await stopChild(chain);
  });

  it("moves chain and service together, runs a GTD expiry at its instant, and GET /time follows", async () => {
    const agent = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "time-trader" });
    const A = apiClient(t, agent.apiKey);
    const market = ((await A("GET", "/discover/markets?pricingModel=ORDERBOOK&pageSize=1")).json.markets as Json[])[0]!;
    const expiresAt = t.svc.ctx.clock.now() + HOUR;
    const gtd = await A("POST", "/orderbook/place-order", {
      market: market.address,
      outcome: 0,
      side: "buy",
      priceBps: "2000",
      size: "1000000",
      timeInForce: "GTD",
      expiresAt: new Date(expiresAt).toISOString(),
      clientOrderId: "gtd-time",
    });
    assert.equal(gtd.status, 200, JSON.stringify(gtd.json));

    const serverBefore = (await A("GET", "/time")).json.serverTime as number;
    const headBefore = await chainHead(`http://127.0.0.1:${chainPort}`);
    const r = await adminCall(t, "POST", "/time/advance", { duration: "2h" });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.equal(r.json.advancedMs, 2 * HOUR);
    assert.equal(r.json.offsetMs, 2 * HOUR);
    assert.equal(r.json.offset, "2h");
    assert.equal(r.json.now, serverBefore + 2 * HOUR);
    assert.deepEqual(
      r.json.transitions.map((x: Json) => [x.source, x.at]),
      [["gtd-expiry", expiresAt]],
    );
    // The expiry is journaled at its own instant, not at the end of the advance.
    const [entry] = await t.svc.ctx.db.query<{ at: string; command: unknown }>(`SELECT at, command FROM journal_entries ORDER BY seq DESC LIMIT 1`);
    assert.equal(Number(entry.at), expiresAt);
    assert.match(JSON.stringify(entry.command), /expireOrders/);
    assert.equal((await A("POST", "/orderbook/confirm-cancel", { clientOrderId: "gtd-time" })).json.status, "expired");
    // The chain moved by the same amount (whole seconds; a block was mined).
    const headAfter = await chainHead(`http://127.0.0.1:${chainPort}`);
    assert.ok(headAfter.blockNumber > headBefore.blockNumber);
    assert.ok(
      headAfter.timestamp - headBefore.timestamp >= 7200n && headAfter.timestamp - headBefore.timestamp < 7200n + 60n,
      `${headBefore.timestamp} -> ${headAfter.timestamp}`,
    );
    assert.equal((await A("GET", "/time")).json.serverTime, serverBefore + 2 * HOUR);
    const view = await adminCall(t, "GET", "/time");
    assert.equal(view.json.offsetMs, 2 * HOUR);
    assert.equal(view.json.chain.blockNumber, String(headAfter.blockNumber));
  });

  it("refuses durations that are not forward moves, and changes nothing", async () => {
    const before = t.svc.ctx.clock.now();
    for (const duration of ["-1h", "0s", "yesterday", "2", "400d", ""]) {
      const r = await adminCall(t, "POST", "/time/advance", { duration });
      assert.equal(r.status, 400, duration);
      assert.equal(r.json.code, "INVALID_PAYLOAD");
      assert.equal(r.json.field, "duration");
    }
    assert.equal((await adminCall(t, "POST", "/time/advance", {})).json.code, "INVALID_PAYLOAD");
    assert.equal(t.svc.ctx.clock.now(), before);
  });

  it("the CLI prints and advances the offset; a restart resumes at the moved time", async () => {
    const saved = { DATA_DIR: process.env.DATA_DIR, PORT: process.env.PORT, CHAIN_PORT: process.env.CHAIN_PORT };
    try {
      Object.assign(process.env, { DATA_DIR: t.dir, PORT: String(t.svc.port), CHAIN_PORT: String(chainPort) });
      const lines: string[] = [];
      assert.equal(await runAdmin(["time", "advance", "90s"], (l) => lines.push(l)), 0);
      assert.match(lines[0], /^moved 90s: .* \(offset now 2h 1m 30s\)$/);
      lines.length = 0;
      assert.equal(await runAdmin(["time"], (l) => lines.push(l)), 0);
      assert.match(lines.join("\n"), /offset +2h 1m 30s \(7290000 ms ahead/);
      await assert.rejects(
        runAdmin(["time", "advance", "5"], () => {}),
        /not a duration/,
      );
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
    const now = t.svc.ctx.clock.now();
    t = await restartTestService(t);
    assert.ok(t.svc.ctx.clock.now() >= now, "a restart does not go back in time");
    assert.equal((await adminCall(t, "GET", "/time")).json.offsetMs, 2 * HOUR + 90_000);
  });
});

describe("time on a live chain", () => {
  it("the route is absent and the CLI refuses when RPC_URL names a non-loopback chain", async () => {
    // Keys of its own: off a local chain the dev keys are refused (api/config.ts).
    const live = { RPC_URL: "https://mainnet.base.org", DEPLOYER_PRIVATE_KEY: `0x${"11".repeat(32)}`, OPERATOR_PRIVATE_KEY: `0x${"22".repeat(32)}` };
    const t = await startTestService({ ...live, INDEXER_ENABLED: "false", SEED_DEMO_MARKETS: "false" });
    const saved = {
      DATA_DIR: process.env.DATA_DIR,
      PORT: process.env.PORT,
      RPC_URL: process.env.RPC_URL,
      DEPLOYER_PRIVATE_KEY: process.env.DEPLOYER_PRIVATE_KEY,
      OPERATOR_PRIVATE_KEY: process.env.OPERATOR_PRIVATE_KEY,
    };
    try {
      for (const [method, path] of [
        ["GET", "/time"],
        ["POST", "/time/advance"],
      ] as const) {
        const r = await adminCall(t, method, path, method === "POST" ? { duration: "1h" } : undefined);
        assert.equal(r.status, 404, path);
        assert.equal(r.json.code, "NOT_FOUND");
      }
      const status = await adminCall(t, "GET", "/status");
      assert.equal(status.json.chain.kind, "remote");
      assert.equal(status.json.modules.includes("time"), false);
      Object.assign(process.env, { DATA_DIR: t.dir, PORT: String(t.svc.port), ...live });
      await assert.rejects(
        runAdmin(["time", "advance", "1h"], () => {}),
        /time moves only on a local chain.*RPC_URL=https:\/\/mainnet\.base\.org is remote/,
      );
      await assert.rejects(
        runAdmin(["time"], () => {}),
        /only on a local chain/,
      );
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      await stopTestService(t);
    }
  });
});

describe("durations", () => {
  it("parses whole units and refuses the rest", () => {
    assert.equal(parseDuration("90s"), 90_000);
    assert.equal(parseDuration("2h"), 7_200_000);
    assert.equal(parseDuration("3d"), 259_200_000);
    assert.equal(parseDuration("1h30m"), 5_400_000);
    assert.equal(parseDuration("500ms"), 500);
    for (const bad of ["", "h", "1.5h", "-1h", "1 h", "1y", "2"]) assert.equal(parseDuration(bad), null, bad);
  });
});
