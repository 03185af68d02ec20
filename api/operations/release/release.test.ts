/**
 * PM's participation release over real HTTP, against a Hardhat node with the contracts deployed (docs/
 * participation-release.md): the gates (wallet, identity, verification), units banked for each finished UTC day a
 * member traded (once per identity), a claim prepared as a voucher, sent on chain by another wallet, finalized from its
 * receipt with a confirmation pending then paid, the refusals that change nothing (a stale release, an open claim,
 * a transaction that paid nothing, the cadence, an expired voucher, a paused distributor), and the MCP SDK client.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createPublicClient, createTestClient, createWalletClient, getAddress, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { participationDistributorAbi, playMoneyAbi } from "../../../generated/abis";
import { manualClock } from "../../../relayer/clock";
import { deployAll } from "../../../relayer/deploy";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY, DEV_TREASURY_ADDRESS } from "../../../relayer/dev-accounts";
import { COMMUNITY_POOL_WEI, identityKey, participationReleaseId } from "../../../relayer/participation-release";
import { rpcChain } from "../../../relayer/rpc-chain";
import { startLocalChain } from "../../../scripts/stack/chain";
import { stopChild, type Child } from "../../../scripts/stack/children";
import { createLifecycleMarket } from "../../../test/support/lifecycle-market";
import { freePort } from "../../../test/support/ports";
import { apiClient, startTestService, stopTestService, type CallResult, type Json, type TestService } from "../../../test/support/service";
import { runAgentCli } from "../../../scripts/agent/main";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { DAY_MS, dayOf, UNIT_WEI } from "../../domain/release/program";

const PM = 1_000_000n;
const ADMIN_TOKEN = "adm_release_test_token_0123456789abcd";

describe("participation release", () => {
  // Its own chain id and deployments folder, so the development deployment is never touched.
  const chainId = 920_000 + Math.floor(Math.random() * 70_000);
  const deployments = mkdtempSync(join(tmpdir(), "pm-release-"));
  let chain: Child;
  let t: TestService;
  let rpcUrl = "";
  let distributor: Address;
  let pmToken: Address;
  let market = "";
  const agents: Record<string, LocalAgent> = {};
  const call: Record<string, ReturnType<typeof apiClient>> = {};
  let expected: { expectedProfileId: string; expectedReleaseId: string };
  let claimed: Json;

  const ok = (r: CallResult, status = 200) => {
    assert.equal(r.status, status, JSON.stringify(r.json));
    return r.json;
  };
  const problem = (r: CallResult, status: number, code: string) => {
    assert.equal(r.status, status, JSON.stringify(r.json));
    assert.equal(r.json.code, code, JSON.stringify(r.json));
    return r.json;
  };
  const state = async (who: string) => ok(await call[who]!("GET", "/participation-release"));
  const trade = async (who: string) => ok(await call[who]!("POST", "/trade/prepare", { market, outcome: 0, side: "buy", shares: (5n * PM).toString() }), 201);
  const prepare = (who: string, body: Json = expected) => call[who]!("POST", "/participation-release/claim/prepare", body);
  const finalize = (who: string, intentId: string, transactionHash: string) =>
    call[who]!("POST", "/participation-release/claim/finalize", { ...expected, intentId, transactionHash });
  const admin = (method: string, path: string) =>
    fetch(`${new URL(t.svc.baseUrl).origin}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const client = () => createPublicClient({ chain: rpcChain(chainId, rpcUrl), transport: http(rpcUrl) });
  const deployer = () => createWalletClient({ chain: rpcChain(chainId, rpcUrl), transport: http(rpcUrl), account: privateKeyToAccount(DEV_DEPLOYER_KEY) });
  const pmOnChain = (who: string) => client().readContract({ address: pmToken, abi: playMoneyAbi, functionName: "balanceOf", args: [getAddress(who)] });
  /** Everything a refused claim must leave as it was. */
  const rows = async () => (await t.svc.ctx.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM participation_intents`))[0]!.n;

  before(async () => {
    const port = await freePort();
    rpcUrl = `http://127.0.0.1:${port}`;
    chain = await startLocalChain({ port, chainId });
    const record = await deployAll({
      rpcUrl,
      deployerKey: DEV_DEPLOYER_KEY,
      operatorAddress: privateKeyToAccount(DEV_OPERATOR_KEY).address,
      treasuryAddress: DEV_TREASURY_ADDRESS,
      outDir: deployments,
    });
    distributor = record.contracts.ParticipationDistributor.address as Address;
    pmToken = record.contracts.PlayMoney.address as Address;
    // The service's clock starts at the chain's time (the deployment's blocks may run ahead of the wall clock).
    const chainNow = Number((await createPublicClient({ transport: http(rpcUrl) }).getBlock()).timestamp) * 1000;
    t = await startTestService(
      {
        CHAIN_ID: String(chainId),
        RPC_URL: rpcUrl,
        DEPLOYMENTS_DIR: deployments,
        INDEXER_ENABLED: "false",
        SEED_DEMO_MARKETS: "false",
        PM_STARTING_GRANT: (1_000n * PM).toString(),
        ADMIN_TOKEN,
        PARTICIPATION_CONFIRMATIONS: "2",
      },
      { clock: manualClock(Math.max(chainNow, Date.now()) + 1_000) },
    );
    for (const name of ["root", "kid", "stranger", "creator"]) {
      agents[name] = await createLocalAgent(t.svc.ctx.db, t.clock, { name: `release-${name}` });
      call[name] = apiClient(t, agents[name]!.apiKey);
      ok(await call[name]!("GET", "/orderbook/balances"));
    }
    market = (
      await createLifecycleMarket(t.svc, { creator: agents.creator!.ledgerAccount as Address, closeTime: t.clock.now() + 60 * DAY_MS, seed: 500n * PM })
    ).address;
  });
  after(async () => {
    if (t) await stopTestService(t);
    if (chain) await stopChild(chain);
    rmSync(deployments, { recursive: true, force: true });
  });

  it("serves the deployed release and refuses a claim until the agent is in a verified identity, changing nothing", async () => {
    const s = await state("root");
    assert.deepEqual(s.profile, {
      profileId: `pm-${chainId}`,
      stage: "test",
      name: "Play Money",
      symbol: "PM",
      decimals: 6,
      releaseId: participationReleaseId(chainId),
    });
    assert.deepEqual(
      [s.deployment.state, s.deployment.claimEnabled, s.deployment.distributorAddress, s.deployment.inventoryWei],
      ["active", true, distributor.toLowerCase(), COMMUNITY_POOL_WEI.toString()],
    );
    assert.deepEqual(s.member, { status: "not_linked", role: null, walletAddress: agents.root!.walletAddress, identityId: null });
    assert.equal(s.lane.state, "unavailable");
    assert.deepEqual(s.claim, { ready: false, reasonCode: "CURRENT_IDENTITY_MEMBERSHIP_REQUIRED", notBefore: null });
    assert.equal(s.distribution.status, "none");
    expected = { expectedProfileId: s.profile.profileId, expectedReleaseId: s.profile.releaseId };
    const release = ok(await call.root!("GET", "/discover/token-release"));
    assert.deepEqual(
      release.distributors.map((d: Json) => [d.kind, d.address.toLowerCase(), d.releaseId]),
      [["participation_release", distributor.toLowerCase(), participationReleaseId(chainId)]],
    );

    problem(await prepare("root"), 403, "CURRENT_IDENTITY_MEMBERSHIP_REQUIRED");
    const code = ok(await call.root!("POST", "/identity/link-code", {}), 201).code;
    const consent = ok(await call.kid!("POST", "/identity/link-consent", { code }), 201).consentId;
    ok(await call.root!("POST", "/identity/approve-links", { consentIds: [consent] }));
    assert.equal((await state("kid")).member.status, "inactive");
    problem(await prepare("kid"), 403, "ACTIVE_VERIFIED_IDENTITY_REQUIRED");
    assert.equal((await admin("PUT", `/identities/${agents.root!.walletAddress}/verified`)).status, 200);
    const verified = await state("kid");
    assert.deepEqual([verified.member.status, verified.member.role, verified.lane.state], ["active", "linked_agent", "not_activated"]);
    problem(await prepare("kid"), 409, "NO_PARTICIPATION_RELEASE_CREDITS");
    const stale = problem(await prepare("kid", { ...expected, expectedReleaseId: `0x${"0".repeat(64)}` }), 409, "STALE_UPDATE");
    assert.equal(stale.releaseId, expected.expectedReleaseId);
    assert.equal(await rows(), "0");
  });

  it("banks one unit per identity for each finished UTC day on which a member traded", async () => {
    await trade("root");
    await trade("kid");
    const today = await state("root");
    assert.equal(today.lane.state, "activation_pending");
    assert.equal(today.lane.nextCreditAt, new Date((dayOf(t.clock.now()) + 1) * DAY_MS).toISOString());
    assert.deepEqual([today.amounts.bankedWei, today.amounts.nextEstimatedWei], ["0", UNIT_WEI.toString()]);

    t.clock.advance(DAY_MS);
    await trade("kid");
    t.clock.advance(DAY_MS);
    const later = await state("root");
    assert.equal(later.amounts.bankedWei, (2n * UNIT_WEI).toString(), "day 1 once for two members, and day 2");
    assert.equal(later.amounts.communityRemainingWei, (COMMUNITY_POOL_WEI - 2n * UNIT_WEI).toString());
    assert.deepEqual([later.lane.state, later.lane.nextCreditAt, later.amounts.nextEstimatedWei], ["active", null, "0"]);
    assert.equal(later.lane.firstActivatedAt, new Date((dayOf(t.clock.now()) - 1) * DAY_MS).toISOString());
    assert.deepEqual(later.claim, { ready: true, reasonCode: null, notBefore: null });
    // Reading again banks nothing twice.
    assert.equal((await state("kid")).amounts.bankedWei, (2n * UNIT_WEI).toString());
    assert.equal((await state("stranger")).amounts.communityRemainingWei, later.amounts.communityRemainingWei, "the pool is the same for every reader");
  });

  it("prepares a voucher that pays the member's wallet whoever sends it, pending finality then paid", async () => {
    const prepared = ok(await prepare("kid"));
    assert.deepEqual([prepared.profileId, prepared.releaseId], [expected.expectedProfileId, expected.expectedReleaseId]);
    assert.match(prepared.intent.id, /^pri_/);
    assert.deepEqual(
      [prepared.intent.status, prepared.intent.deliveryMode, prepared.intent.amountWei, prepared.intent.recipient],
      ["prepared", "self_claim", (2n * UNIT_WEI).toString(), agents.kid!.walletAddress],
    );
    assert.deepEqual([prepared.transaction.chainId, prepared.transaction.to, prepared.transaction.value], [chainId, distributor.toLowerCase(), "0"]);
    const open = problem(await prepare("root"), 409, "PARTICIPATION_DISTRIBUTION_ALREADY_PREPARED");
    assert.equal(open.intentId, prepared.intent.id);
    assert.equal((await state("root")).claim.reasonCode, "PARTICIPATION_DISTRIBUTION_ALREADY_PREPARED");

    // A transaction that succeeded without paying this claim is refused, and the claim stays as it was.
    const unrelated = await deployer().sendTransaction({ to: getAddress(agents.stranger!.walletAddress), value: 1n });
    await client().waitForTransactionReceipt({ hash: unrelated });
    problem(await finalize("kid", prepared.intent.id, unrelated), 409, "PARTICIPATION_DISTRIBUTION_EVENT_MISMATCH");
    assert.equal(ok(await call.kid!("GET", `/participation-release/distributions/${prepared.intent.id}`)).distribution.status, "prepared");

    // Another wallet sends the voucher; the PM reaches the kid's wallet only.
    const hash = await deployer().sendTransaction({ to: prepared.transaction.to, data: prepared.transaction.data as Hex });
    assert.equal((await client().waitForTransactionReceipt({ hash })).status, "success");
    assert.equal(await pmOnChain(agents.kid!.walletAddress), 2n * UNIT_WEI);
    const pending = ok(await finalize("kid", prepared.intent.id, hash));
    assert.deepEqual(
      [pending.distribution.status, pending.distribution.reasonCode, pending.distribution.transactionHash, pending.distribution.recipientRelation],
      ["projection_pending", "PARTICIPATION_DISTRIBUTION_FINALITY_PENDING", hash, "self"],
    );
    await createTestClient({ chain: rpcChain(chainId, rpcUrl), mode: "hardhat", transport: http(rpcUrl) }).mine({ blocks: 1 });
    const paid = ok(await call.root!("GET", `/participation-release/distributions/${prepared.intent.id}`));
    assert.deepEqual(
      [paid.distribution.status, paid.distribution.amountWei, paid.distribution.recipientRelation, paid.transaction],
      ["paid", (2n * UNIT_WEI).toString(), "another_linked_member", null],
    );
    claimed = paid.distribution;
    const after = await state("root");
    assert.deepEqual([after.amounts.confirmedPaidWei, after.amounts.bankedWei], [(2n * UNIT_WEI).toString(), "0"]);
    assert.equal(after.claim.reasonCode, "PARTICIPATION_CLAIM_CADENCE_ACTIVE");
    assert.equal(after.distribution.intentId, prepared.intent.id);
    // Another transaction hash for a paid claim is a mismatch; the paid claim is unchanged.
    problem(await finalize("kid", prepared.intent.id, unrelated), 409, "PARTICIPATION_DISTRIBUTION_EVENT_MISMATCH");
    // A claim is visible to its identity's members only.
    problem(await call.stranger!("GET", `/participation-release/distributions/${prepared.intent.id}`), 404, "DISTRIBUTION_NOT_FOUND");
    const identity = identityKey((await state("kid")).member.identityId);
    assert.equal(
      await client().readContract({ address: distributor, abi: participationDistributorAbi, functionName: "paidTo", args: [identity] }),
      2n * UNIT_WEI,
    );
  });

  it("refuses a second claim within the cadence, and a voucher that expired unpaid is closed", async () => {
    const cadence = await prepare("root");
    problem(cadence, 409, "PARTICIPATION_CLAIM_CADENCE_ACTIVE");
    assert.ok(Number(cadence.headers.get("retry-after")) > 0);
    await trade("root");
    t.clock.advance(DAY_MS);
    const fresh = ok(await prepare("root"));
    assert.equal(fresh.intent.amountWei, UNIT_WEI.toString());
    t.clock.advance(45 * 60_000);
    const expired = ok(await call.root!("GET", `/participation-release/distributions/${fresh.intent.id}`));
    assert.deepEqual(
      [expired.distribution.status, expired.distribution.reasonCode, expired.transaction],
      ["unpaid", "PARTICIPATION_DISTRIBUTION_VOUCHER_EXPIRED", null],
    );
    problem(await finalize("root", fresh.intent.id, `0x${"ab".repeat(32)}`), 410, "PARTICIPATION_DISTRIBUTION_VOUCHER_EXPIRED");
    assert.equal((await state("root")).amounts.bankedWei, UNIT_WEI.toString(), "the unit stays banked for the next claim");
    const again = ok(await prepare("root"));
    assert.notEqual(again.intent.id, fresh.intent.id);
  });

  it("pm-agent release claim prepares, sends from another wallet and finalizes; status and show read it back", async () => {
    const home = mkdtempSync(join(tmpdir(), "pm-agent-release-"));
    const cli = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runAgentCli(["--url", t.svc.baseUrl, ...argv], { out: (x) => out.push(x), err: (x) => err.push(x), env: { PM_AGENT_HOME: home } });
      return { code, out: out.join("\n"), err: err.join("\n") };
    };
    try {
      assert.equal((await cli("login", "--key", agents.root!.apiKey)).code, 0);
      // The open claim of the test before expires unpaid; the banked unit is claimed again.
      t.clock.advance(45 * 60_000);
      const status = await cli("--json", "release", "status");
      assert.equal(status.code, 0, status.err);
      assert.deepEqual(JSON.parse(status.out).claim, { ready: true, reasonCode: null, notBefore: null });
      const before = await pmOnChain(agents.root!.walletAddress);
      const claim = await cli("release", "claim", "--rpc", rpcUrl, "--sender-key", DEV_DEPLOYER_KEY);
      assert.equal(claim.code, 0, claim.err);
      assert.match(claim.out, /sent 0x[0-9a-f]{64} from 0x/i);
      assert.match(claim.out, /projection_pending \(PARTICIPATION_DISTRIBUTION_FINALITY_PENDING\), 10 PM to 0x[0-9a-f]{40} \(self\)/);
      assert.equal(await pmOnChain(agents.root!.walletAddress), before + UNIT_WEI);
      await createTestClient({ chain: rpcChain(chainId, rpcUrl), mode: "hardhat", transport: http(rpcUrl) }).mine({ blocks: 1 });
      const intentId = /claim (pri_[0-9a-f-]+)/.exec(claim.out)![1]!;
      const shown = await cli("release", "show", intentId);
      assert.match(shown.out, new RegExp(`claim ${intentId}: paid, 10 PM`));
      // A second claim within the cadence is the service's refusal: exit 1 with its code.
      const again = await cli("release", "claim", "--print");
      assert.equal(again.code, 1);
      assert.match(again.err, /409 PARTICIPATION_CLAIM_CADENCE_ACTIVE/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("answers payment_paused while the distributor is paused, and refuses a claim", async () => {
    const pauseHash = await deployer().writeContract({ address: distributor, abi: participationDistributorAbi, functionName: "pause" });
    await client().waitForTransactionReceipt({ hash: pauseHash });
    const s = await state("kid");
    assert.deepEqual(
      [s.deployment.state, s.deployment.claimEnabled, s.deployment.reasonCode, s.lane.state],
      ["payment_paused", false, "PARTICIPATION_DISTRIBUTION_PAUSED", "unavailable"],
    );
    const before = await rows();
    problem(await prepare("kid"), 503, "PARTICIPATION_DISTRIBUTION_PAUSED");
    assert.equal(await rows(), before);
    const resume = await deployer().writeContract({ address: distributor, abi: participationDistributorAbi, functionName: "unpause" });
    await client().waitForTransactionReceipt({ hash: resume });
  });

  it("serves the release's MCP tools through the MCP SDK client", async () => {
    const mcp = new Client({ name: "release-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(t.svc.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${agents.kid!.apiKey}` } } }),
    );
    try {
      const names = (await mcp.listTools()).tools.map((x) => x.name);
      for (const tool of [
        "svc_get_participation_release",
        "svc_prepare_participation_claim",
        "svc_finalize_participation_claim",
        "svc_get_participation_distribution",
      ])
        assert.ok(names.includes(tool), `${tool} is served`);
      const got = (await mcp.callTool({ name: "svc_get_participation_distribution", arguments: { intentId: claimed.intentId } })) as CallToolResult;
      assert.equal(got.isError, undefined, JSON.stringify(got));
      assert.equal((got.structuredContent as Json).distribution.status, "paid");
    } finally {
      await mcp.close();
    }
  });
});
