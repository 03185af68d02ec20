/**
 * PM's participation release over real HTTP, against a Hardhat node with the contracts deployed (docs/
 * participation-release.md): the gates (wallet, identity, verification), units banked for each finished UTC day a
 * member traded (once per identity), a claim prepared as a voucher, sent on chain by another wallet, finalized from its
 * receipt with a confirmation pending then paid, the refusals that change nothing (a stale release, an open claim,
 * a transaction that paid nothing, the cadence, an expired voucher, a paused distributor), and the MCP SDK client.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getAddress, type Hex } from "viem";
import { participationDistributorAbi } from "../../../generated/abis";
import { COMMUNITY_POOL_WEI, identityKey, participationReleaseId } from "../../../relayer/participation-release";
import type { CallResult, Json } from "../../../test/support/service";
import { type ReleaseStack, startReleaseStack } from "../../../test/support/release-stack";
import { DAY_MS, dayOf, UNIT_WEI } from "../../domain/release/program";

describe("participation release", () => {
  let x: ReleaseStack;
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
  const call = (who: string) => x.call[who]!;
  const state = async (who: string) => ok(await call(who)("GET", "/participation-release"));
  const prepare = (who: string, body: Json = expected) => call(who)("POST", "/participation-release/claim/prepare", body);
  const finalize = (who: string, intentId: string, transactionHash: string) =>
    call(who)("POST", "/participation-release/claim/finalize", { ...expected, intentId, transactionHash });
  /** Everything a refused claim must leave as it was. */
  const rows = async () => (await x.t.svc.ctx.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM participation_intents`))[0]!.n;

  before(async () => {
    x = await startReleaseStack(["root", "kid", "stranger"], { PARTICIPATION_CONFIRMATIONS: "2" });
  });
  after(async () => x?.stop());

  it("serves the deployed release and refuses a claim until the agent is in a verified identity, changing nothing", async () => {
    const s = await state("root");
    assert.deepEqual(s.profile, {
      profileId: `pm-${x.chainId}`,
      stage: "test",
      name: "Play Money",
      symbol: "PM",
      decimals: 6,
      releaseId: participationReleaseId(x.chainId),
    });
    assert.deepEqual(
      [s.deployment.state, s.deployment.claimEnabled, s.deployment.distributorAddress, s.deployment.inventoryWei],
      ["active", true, x.distributor.toLowerCase(), COMMUNITY_POOL_WEI.toString()],
    );
    assert.deepEqual(s.member, { status: "not_linked", role: null, walletAddress: x.agents.root!.walletAddress, identityId: null });
    assert.equal(s.lane.state, "unavailable");
    assert.deepEqual(s.claim, { ready: false, reasonCode: "CURRENT_IDENTITY_MEMBERSHIP_REQUIRED", notBefore: null });
    assert.equal(s.distribution.status, "none");
    expected = { expectedProfileId: s.profile.profileId, expectedReleaseId: s.profile.releaseId };
    const release = ok(await call("root")("GET", "/discover/token-release"));
    assert.deepEqual(
      release.distributors.map((d: Json) => [d.kind, d.address.toLowerCase(), d.releaseId]),
      [["participation_release", x.distributor.toLowerCase(), participationReleaseId(x.chainId)]],
    );

    problem(await prepare("root"), 403, "CURRENT_IDENTITY_MEMBERSHIP_REQUIRED");
    const code = ok(await call("root")("POST", "/identity/link-code", {}), 201).code;
    const consent = ok(await call("kid")("POST", "/identity/link-consent", { code }), 201).consentId;
    ok(await call("root")("POST", "/identity/approve-links", { consentIds: [consent] }));
    assert.equal((await state("kid")).member.status, "inactive");
    problem(await prepare("kid"), 403, "ACTIVE_VERIFIED_IDENTITY_REQUIRED");
    assert.equal((await x.admin("PUT", `/identities/${x.agents.root!.walletAddress}/verified`)).status, 200);
    const verified = await state("kid");
    assert.deepEqual([verified.member.status, verified.member.role, verified.lane.state], ["active", "linked_agent", "not_activated"]);
    problem(await prepare("kid"), 409, "NO_PARTICIPATION_RELEASE_CREDITS");
    const stale = problem(await prepare("kid", { ...expected, expectedReleaseId: `0x${"0".repeat(64)}` }), 409, "STALE_UPDATE");
    assert.equal(stale.releaseId, expected.expectedReleaseId);
    assert.equal(await rows(), "0");
  });

  it("banks one unit per identity for each finished UTC day on which a member traded", async () => {
    await x.trade("root");
    await x.trade("kid");
    const today = await state("root");
    assert.equal(today.lane.state, "activation_pending");
    assert.equal(today.lane.nextCreditAt, new Date((dayOf(x.t.clock.now()) + 1) * DAY_MS).toISOString());
    assert.deepEqual([today.amounts.bankedWei, today.amounts.nextEstimatedWei], ["0", UNIT_WEI.toString()]);

    x.t.clock.advance(DAY_MS);
    await x.trade("kid");
    x.t.clock.advance(DAY_MS);
    const later = await state("root");
    assert.equal(later.amounts.bankedWei, (2n * UNIT_WEI).toString(), "day 1 once for two members, and day 2");
    assert.equal(later.amounts.communityRemainingWei, (COMMUNITY_POOL_WEI - 2n * UNIT_WEI).toString());
    assert.deepEqual([later.lane.state, later.lane.nextCreditAt, later.amounts.nextEstimatedWei], ["active", null, "0"]);
    assert.equal(later.lane.firstActivatedAt, new Date((dayOf(x.t.clock.now()) - 1) * DAY_MS).toISOString());
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
      ["prepared", "self_claim", (2n * UNIT_WEI).toString(), x.agents.kid!.walletAddress],
    );
    assert.deepEqual([prepared.transaction.chainId, prepared.transaction.to, prepared.transaction.value], [x.chainId, x.distributor.toLowerCase(), "0"]);
    const open = problem(await prepare("root"), 409, "PARTICIPATION_DISTRIBUTION_ALREADY_PREPARED");
    assert.equal(open.intentId, prepared.intent.id);
    assert.equal((await state("root")).claim.reasonCode, "PARTICIPATION_DISTRIBUTION_ALREADY_PREPARED");

    // A transaction that succeeded without paying this claim is refused, and the claim stays as it was.
    const unrelated = await x.deployer().sendTransaction({ to: getAddress(x.agents.stranger!.walletAddress), value: 1n });
    await x.client().waitForTransactionReceipt({ hash: unrelated });
    problem(await finalize("kid", prepared.intent.id, unrelated), 409, "PARTICIPATION_DISTRIBUTION_EVENT_MISMATCH");
    assert.equal(ok(await call("kid")("GET", `/participation-release/distributions/${prepared.intent.id}`)).distribution.status, "prepared");

    // Another wallet sends the voucher; the PM reaches the kid's wallet only.
    const hash = await x.deployer().sendTransaction({ to: prepared.transaction.to, data: prepared.transaction.data as Hex });
    assert.equal((await x.client().waitForTransactionReceipt({ hash })).status, "success");
    assert.equal(await x.pmOnChain(x.agents.kid!.walletAddress), 2n * UNIT_WEI);
    const pending = ok(await finalize("kid", prepared.intent.id, hash));
    assert.deepEqual(
      [pending.distribution.status, pending.distribution.reasonCode, pending.distribution.transactionHash, pending.distribution.recipientRelation],
      ["projection_pending", "PARTICIPATION_DISTRIBUTION_FINALITY_PENDING", hash, "self"],
    );
    await x.mine();
    const paid = ok(await call("root")("GET", `/participation-release/distributions/${prepared.intent.id}`));
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
    problem(await call("stranger")("GET", `/participation-release/distributions/${prepared.intent.id}`), 404, "DISTRIBUTION_NOT_FOUND");
    const identity = identityKey((await state("kid")).member.identityId);
    assert.equal(
      await x.client().readContract({ address: x.distributor, abi: participationDistributorAbi, functionName: "paidTo", args: [identity] }),
      2n * UNIT_WEI,
    );
  });

  it("refuses a second claim within the cadence, and a voucher that expired unpaid is closed", async () => {
    const cadence = await prepare("root");
    problem(cadence, 409, "PARTICIPATION_CLAIM_CADENCE_ACTIVE");
    assert.ok(Number(cadence.headers.get("retry-after")) > 0);
    await x.trade("root");
    x.t.clock.advance(DAY_MS);
    const fresh = ok(await prepare("root"));
    assert.equal(fresh.intent.amountWei, UNIT_WEI.toString());
    x.t.clock.advance(45 * 60_000);
    const expired = ok(await call("root")("GET", `/participation-release/distributions/${fresh.intent.id}`));
    assert.deepEqual(
      [expired.distribution.status, expired.distribution.reasonCode, expired.transaction],
      ["unpaid", "PARTICIPATION_DISTRIBUTION_VOUCHER_EXPIRED", null],
    );
    problem(await finalize("root", fresh.intent.id, `0x${"ab".repeat(32)}`), 410, "PARTICIPATION_DISTRIBUTION_VOUCHER_EXPIRED");
    assert.equal((await state("root")).amounts.bankedWei, UNIT_WEI.toString(), "the unit stays banked for the next claim");
    const again = ok(await prepare("root"));
    assert.notEqual(again.intent.id, fresh.intent.id);
  });

  it("answers payment_paused while the distributor is paused, and refuses a claim", async () => {
    const pauseHash = await x.deployer().writeContract({ address: x.distributor, abi: participationDistributorAbi, functionName: "pause" });
    await x.client().waitForTransactionReceipt({ hash: pauseHash });
    const s = await state("kid");
    assert.deepEqual(
      [s.deployment.state, s.deployment.claimEnabled, s.deployment.reasonCode, s.lane.state],
      ["payment_paused", false, "PARTICIPATION_DISTRIBUTION_PAUSED", "unavailable"],
    );
    const before = await rows();
    problem(await prepare("kid"), 503, "PARTICIPATION_DISTRIBUTION_PAUSED");
    assert.equal(await rows(), before);
    const resume = await x.deployer().writeContract({ address: x.distributor, abi: participationDistributorAbi, functionName: "unpause" });
    await x.client().waitForTransactionReceipt({ hash: resume });
  });

  it("serves the release's MCP tools through the MCP SDK client", async () => {
    const mcp = new Client({ name: "release-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(x.t.svc.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${x.agents.kid!.apiKey}` } } }),
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

  it("answers degraded when the chain stops: the state still reads, a claim is refused with 503 and nothing is written", async () => {
    const before = await rows();
    const last = (await state("kid")).distribution;
    await x.stopChain();
    const s = await state("kid");
    assert.deepEqual(
      [s.deployment.state, s.deployment.reasonCode, s.deployment.claimEnabled, s.lane.state],
      ["degraded", "PARTICIPATION_ROUTE_DEGRADED", false, "unavailable"],
    );
    assert.deepEqual([s.distribution.intentId, s.distribution.status], [last.intentId, last.status], "the last stored claim is still shown");
    problem(await prepare("kid"), 503, "PARTICIPATION_ROUTE_DEGRADED");
    problem(await finalize("kid", claimed.intentId, claimed.transactionHash), 503, "PARTICIPATION_ROUTE_DEGRADED");
    assert.equal(await rows(), before);
  });
});
