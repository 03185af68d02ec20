/**
 * `pm-agent` against startService over real HTTP, with its credential file in a temporary directory: registration by
 * wallet proof (a closed path is refused with the problem's code and exit 1), the file's privacy, login with an
 * existing key, reads, an order placed, resent with the same Idempotency-Key and applied once, cancelled, a take,
 * key recovery by the saved wallet, refusals and exit codes; the launcher as a child process; and the client's retry
 * of a write whose answer was lost, with the same Idempotency-Key each time.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { createLocalAgent } from "../../api/domain/auth/local-agents";
import { apiClient, startTestService, stopTestService, type Json, type TestService } from "../../test/support/service";
import { AgentClient } from "./client";
import { credentialPath } from "./credentials";
import { runAgentCli } from "./main";
import { probabilityToBps } from "./units";

const SHARE = 1_000_000n;

describe("pm-agent", () => {
  let t: TestService;
  let home = "";
  let market: Json;
  let traderKey = "";

  /** Runs one command line in-process: its exit code and what it printed. */
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAgentCli(["--url", t.svc.baseUrl, ...argv], { out: (s) => out.push(s), err: (s) => err.push(s), env: { PM_AGENT_HOME: home } });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };
  const profiles = () => JSON.parse(readFileSync(credentialPath({ PM_AGENT_HOME: home }), "utf8")).profiles as Record<string, Json>;

  before(async () => {
    t = await startTestService({ PM_STARTING_GRANT: (1_000n * SHARE).toString() });
    home = join(mkdtempSync(join(tmpdir(), "pm-agent-")), "config");
    traderKey = (await createLocalAgent(t.svc.ctx.db, t.clock, { name: "cli-trader" })).apiKey;
    market = (((await apiClient(t)("GET", "/discover/markets?pricingModel=ORDERBOOK")).json.markets as Json[]) ?? [])[0];
  });
  after(async () => stopTestService(t));

  it("registers by wallet proof, keeps the key and the new wallet in a private file, and refuses a closed path with its code", async () => {
    const closed = await cli("--profile", "solo", "register", "--name", "cli-solo");
    assert.equal(closed.code, 1, closed.err);
    assert.match(closed.err, /403 FEATURE_DISABLED/, "the wallet path is closed by default");

    const r = await cli("--profile", "owned", "register", "--name", "cli-owned", "--owner-email", "owner@example.com");
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /registered cli-owned .* status claim-pending/);
    const saved = profiles().owned!;
    assert.match(saved.apiKey, /\S{20,}/);
    assert.match(saved.walletPrivateKey, /^0x[0-9a-f]{64}$/);
    assert.equal(statSync(credentialPath({ PM_AGENT_HOME: home })).mode & 0o777, 0o600);
    assert.equal(statSync(home).mode & 0o777, 0o700);
    const me = await apiClient(t, saved.apiKey)("GET", "/me");
    assert.equal(me.status, 200);
    assert.equal(me.json.name, "cli-owned");
    assert.equal(me.json.walletAddress, saved.walletAddress);

    const again = await cli("--profile", "owned", "register", "--name", "cli-owned-2", "--owner-email", "owner@example.com");
    assert.equal(again.code, 2, "a profile that holds a key is not overwritten");
    assert.match(again.err, /already holds a key/);
  });

  it("recovers a new key with the saved wallet's proof; the old key stops working", async () => {
    const old = profiles().owned!.apiKey as string;
    const r = await cli("--profile", "owned", "recover");
    assert.equal(r.code, 0, r.err);
    const fresh = profiles().owned!.apiKey as string;
    assert.notEqual(fresh, old);
    assert.equal((await apiClient(t, old)("GET", "/me")).status, 401);
    assert.equal((await apiClient(t, fresh)("GET", "/me")).status, 200);
  });

  it("logs in with an existing key and reads as that agent", async () => {
    assert.equal((await cli("--profile", "trader", "login", "--key", "not-a-key")).code, 1, "a key the service does not know is not saved");
    assert.equal(profiles().trader, undefined);
    const r = await cli("--profile", "trader", "login", "--key", traderKey);
    assert.equal(r.code, 0, r.err);
    assert.match((await cli("--profile", "trader", "whoami")).out, /^cli-trader \(/);
    const listed = await cli("--json", "markets", "--limit", "5");
    assert.deepEqual(JSON.parse(listed.out), (await apiClient(t)("GET", "/discover/markets?pageSize=5")).json);
    const balances = await cli("--profile", "trader", "balances");
    assert.match(balances.out, /PM\s+1,000\s+1,000/);
    const env = await cli("--profile", "trader", "env");
    assert.match(env.out, new RegExp(`export SVC_API_KEY='${traderKey}'`));
    const mcp = await cli("mcp", "--client", "cursor");
    assert.equal(mcp.code, 0, mcp.err);
    assert.match(mcp.out, /SVC_API_KEY/);
  });

  it("places an order in whole shares at a probability; the same Idempotency-Key resent applies it once; cancel", async () => {
    const A = apiClient(t, traderKey);
    const order = (price: string, ...extra: string[]) =>
      cli("--profile", "trader", "order", market.address, "--outcome", "0", "--side", "buy", "--price", price, "--size", "2.5", ...extra);
    const placed = await order("0.45");
    assert.equal(placed.code, 0, placed.err);
    const key = /idempotency key (\S+);/.exec(placed.out)![1]!;
    const orderId = /^(o-\d+) open:/.exec(placed.out)![1]!;
    const open = (await A("GET", "/orderbook/orders")).json.orders as Json[];
    assert.equal(open.length, 1);
    assert.deepEqual([open[0].orderId, open[0].priceBps, open[0].size], [orderId, "4500", "2500000"]);

    const resent = await order("0.45", "--idempotency-key", key);
    assert.equal(resent.code, 0, resent.err);
    assert.match(resent.out, new RegExp(`^${orderId} open:.*\\(replayed`));
    assert.equal(((await A("GET", "/orderbook/orders")).json.orders as Json[]).length, 1, "the resent write placed nothing more");

    const changed = await order("0.46", "--idempotency-key", key);
    assert.equal(changed.code, 1);
    assert.match(changed.err, /409 IDEMPOTENCY_KEY_REUSED/);

    const cancelled = await cli("--profile", "trader", "cancel", orderId);
    assert.equal(cancelled.code, 0, cancelled.err);
    assert.match(cancelled.out, new RegExp(`${orderId} cancelled`));
    assert.deepEqual((await A("GET", "/orderbook/orders")).json.orders, []);
  });

  it("trades an LMSR market at its price: whole shares bought, the cost printed is what the ledger moved", async () => {
    const A = apiClient(t, traderKey);
    const lmsr = ((await A("GET", "/discover/markets?pricingModel=automated")).json.markets as Json[])[0];
    const pmBefore = BigInt(((await A("GET", "/orderbook/balances")).json.balances as Json[]).find((b) => b.asset === "PM")!.available);
    const r = await cli("--profile", "trader", "--json", "trade", lmsr.address, "--outcome", "0", "--side", "buy", "--shares", "5");
    assert.equal(r.code, 0, r.err);
    const trade = JSON.parse(r.out);
    assert.equal(trade.shares, "5000000");
    const balances = (await A("GET", "/orderbook/balances")).json.balances as Json[];
    const pmAfter = BigInt(balances.find((b) => b.asset === "PM")!.available);
    assert.equal(pmBefore - pmAfter, BigInt(trade.cost));
    assert.equal(balances.find((b) => b.asset === "OUTCOME" && b.market === lmsr.address && b.outcome === 0)!.total, "5000000");
    const tooFine = await cli("--profile", "trader", "trade", lmsr.address, "--outcome", "0", "--side", "buy", "--shares", "0.0000001");
    assert.equal(tooFine.code, 2);
    assert.match(tooFine.err, /at most 6 decimals/);
  });

  it("publishes a take, which the market read shows as the analysts' consensus", async () => {
    const r = await cli("--profile", "trader", "take", market.address, "--probability", "0.62", "--rationale", "thin book", "--confidence", "low");
    assert.equal(r.code, 0, r.err);
    assert.match((await cli("market", market.address)).out, /AI analysts: 62\.0% over 1 take/);
    // Its market is still open: nothing scored yet, one take pending; nobody has enough scored takes to be ranked.
    const scoring = await cli("--profile", "trader", "scoring");
    assert.equal(scoring.code, 0, scoring.err);
    assert.match(scoring.out, /^cli-trader: no scored take yet \(all\)\nunscored: 1 pending, 0 void, 0 for a horizon$/);
    assert.match((await cli("scoring", "--cohort")).out, /^0 analyst\(s\), 0 scored take\(s\) \(all\)\nnobody ranked \(5 scored takes needed\)$/);
  });

  it("links two profiles' agents under one identity: code, join, approve --all, show, unlink", async () => {
    const second = (await createLocalAgent(t.svc.ctx.db, t.clock, { name: "cli-second" })).apiKey;
    assert.equal((await cli("--profile", "second", "login", "--key", second)).code, 0);
    const made = await cli("--profile", "trader", "identity", "code");
    assert.equal(made.code, 0, made.err);
    assert.match(made.out, /made identity .* with this agent as root/);
    const code = /^([A-Z0-9]{5}-[A-Z0-9]{5})/.exec(made.out)![1]!;
    const joined = await cli("--profile", "second", "identity", "join", code);
    assert.equal(joined.code, 0, joined.err);
    assert.match((await cli("--profile", "trader", "identity", "pending")).out, /cli-second/);
    const approved = await cli("--profile", "trader", "identity", "approve", "--all");
    assert.equal(approved.code, 0, approved.err);
    assert.match(approved.out, /approved 0x[0-9a-f]{40}\n1 of 49 addresses linked/);
    const shown = JSON.parse((await cli("--profile", "second", "--json", "identity", "show")).out);
    assert.equal(shown.identity.role, "linked_agent");
    assert.equal(shown.identity.members.length, 2);
    assert.equal((await cli("--profile", "trader", "identity", "approve", "--all")).code, 2, "nothing left to approve");
    const wallet = shown.identity.members[1].walletAddress as string;
    assert.match((await cli("--profile", "second", "identity", "unlink", wallet)).out, new RegExp(`${wallet} unlinked`));
    assert.equal(JSON.parse((await cli("--profile", "second", "--json", "identity", "show")).out).identity, null);
  });

  it("refuses bad input before sending anything (exit 2), and names the service's refusal (exit 1)", async () => {
    const bad = await cli("--profile", "trader", "order", market.address, "--outcome", "0", "--side", "buy", "--price", "1.5", "--size", "1");
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--price must be a probability/);
    assert.equal((await cli("--profile", "nobody", "balances")).code, 2);
    const unknown = await cli("market", `0x${"ab".repeat(20)}`);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /404 MARKET_NOT_FOUND/);
    assert.equal((await cli("no-such-command")).code, 2);
    assert.equal(probabilityToBps("0.5"), "5000");
    assert.equal(probabilityToBps(".0001"), "1");
  });

  it("will not read a credential file that others can read", async () => {
    const path = credentialPath({ PM_AGENT_HOME: home });
    chmodSync(path, 0o644);
    const r = await cli("--profile", "trader", "whoami");
    chmodSync(path, 0o600);
    assert.equal(r.code, 2);
    assert.match(r.err, /readable by others.*chmod 600/);
  });

  it("runs as `pm-agent` from its launcher", async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [join(__dirname, "bin.js"), "--url", t.svc.baseUrl, "--profile", "trader", "whoami"], {
      env: { ...process.env, PM_AGENT_HOME: home },
    });
    assert.match(stdout, /^cli-trader \(/);
  });

  it("retries a write whose answer was lost with the same Idempotency-Key", async () => {
    const keys: string[] = [];
    const server = createServer((req, res) => {
      keys.push(String(req.headers["idempotency-key"]));
      if (keys.length === 1) {
        res.writeHead(503, { "content-type": "application/problem+json", "retry-after": "0" }).end(JSON.stringify({ code: "SERVICE_UNAVAILABLE" }));
        return;
      }
      if (keys.length === 2) {
        req.socket.destroy(); // the answer is lost on the way back
        return;
      }
      res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const api = new AgentClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agent/v1`, apiKey: "k", sleep: async () => {} });
      const res = await api.call("POST", "/orderbook/place-order", {});
      assert.equal(res.status, 201);
      assert.equal(keys.length, 3);
      assert.equal(new Set(keys).size, 1, "every attempt carried the first attempt's key");
      assert.equal(res.idempotencyKey, keys[0]);
    } finally {
      server.close();
    }
  });
});
