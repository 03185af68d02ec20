/**
 * Resolution and payouts as agents meet them, against the real `npm start` stack (Hardhat chain, contracts, service
 * publishing journal batches): a creator lists a committed LMSR market through the negotiate flow, two agents trade
 * it, time passes its close (POST /admin/v1/time/advance moves chain and service), the creator proposes, a third
 * agent challenges, three wallets cast staked ballots, the vote's deadline passes, the council (appointed by the
 * operator) stays silent, and the market resolves with every holder paid in the same command. Then the claim and
 * receipt routes, `npx decode` of the batch holding the payouts (rootOk, commitmentOk), a holder's proof from
 * /api/v1/ledger/proof/{account} checked by CommittedLedger.verifyBalance, and the events (market.state_changed,
 * payout.credited) a holder's webhook receives.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createPublicClient, http, type Address, type Hex } from "viem";
import { EventSource } from "eventsource";
import { committedLedgerAbi } from "../../generated/abis";
import { call, freshAccount, freshNonce, registerProof, show, type Json } from "./client";
import { assertProblem } from "./problems";
import { startWebhookReceiver, until, type WebhookReceiver } from "./receivers";
import { startStack, type E2eStack } from "./stack";
import { decodeCli, payoutBatchFinder } from "./decode-cli";

const DAY = 86_400_000;
const PM = 1_000_000n;
const ADMIN_TOKEN = "adm_resolution_e2e_token_0123456789";

interface Agent {
  name: string;
  key: string;
  ledgerAccount: string;
}

describe("resolution end to end: propose, challenge, vote, silent council, payouts, claims, decode, proof", { timeout: 900_000 }, () => {
  let stack: E2eStack;
  let base: string;
  let hooks: WebhookReceiver;
  const agents: Record<string, Agent> = {};
  let market: Json;
  let ledger: Address;
  let beforeResolveNonce = 0n;
  let aliceBefore = 0n;
  /** `market:state` frames of the market data lane, as bob's SSE stream of the market's channel receives them. */
  const laneStates: Json[] = [];
  let lane: EventSource | undefined;

  const get = (who: string, path: string) => call(base, "GET", path, undefined, { key: agents[who]!.key });
  const post = (who: string, path: string, body: unknown) => call(base, "POST", path, body, { key: agents[who]!.key });
  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await call(stack.origin, method, `${stack.origin}/admin/v1${path}`, body, { key: ADMIN_TOKEN, idem: null });
    assert.equal(r.status, 200, show(method, `/admin/v1${path}`, r));
    return r.json;
  };
  const advance = (duration: string) => admin("POST", "/time/advance", { duration });
  const state = async () => {
    const r = await get("alice", `/discover/markets/${market.address}/resolution-state`);
    assert.equal(r.status, 200, show("GET", "resolution-state", r));
    return r.json;
  };
  const pm = async (who: string) => {
    const r = await get(who, "/orderbook/balances");
    assert.equal(r.status, 200, show("GET", "/orderbook/balances", r));
    return BigInt((r.json.balances as Json[]).find((b) => b.asset === "PM")!.available);
  };

  before(
    async () => {
      hooks = await startWebhookReceiver();
      stack = await startStack({
        env: { REGISTRATION_WALLET_OPEN: "true", SEED_DEMO_MARKETS: "false", ADMIN_TOKEN, WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_POLL_MS: "100" },
        // Every route here reads the committed lane (journal, batches, chain); the indexer would only add start-up time.
        indexer: false,
      });
      base = stack.baseUrl;
      for (const name of ["creator", "alice", "bob", "carol", "v1", "v2", "v3"]) {
        const account = freshAccount();
        const r = await call(base, "POST", "/register", {
          name: `res-e2e-${name}-${Date.now()}`,
          ...(await registerProof(account, await freshNonce(stack.origin))),
        });
        assert.equal(r.status, 201, show("POST", "/register", r));
        agents[name] = { name, key: r.json.apiKey as string, ledgerAccount: (r.json.ledgerAccount as string).toLowerCase() };
      }
      const contracts = await call(base, "GET", "/discover/contracts");
      ledger = contracts.json.chains?.find((c: Json) => c.chainId === stack.chainId)?.committedLedger as Address;
      assert.ok(ledger, show("GET", "/discover/contracts", contracts));
    },
    { timeout: 300_000 },
  );
  after(async () => {
    lane?.close();
    const report = await stack?.stop();
    await hooks?.close();
    if (report) assert.deepEqual(report.leftover, []);
  });

  it("the creator lists a committed LMSR market; alice subscribes to its state and her payouts", async () => {
    const body = {
      title: "Will the resolution end-to-end test pay its holders?",
      description: "Resolves YES when the test's holders are paid.",
      category: "TECH",
      closeTime: new Date(Date.now() + 2 * DAY).toISOString(),
      resolutionSource: { type: "creator", note: "the e2e test" },
      externalId: "e2e-resolution",
      pricingModel: "automated",
      collateral: "PM",
      seed: String(100n * PM),
    };
    const proposed = await post("creator", "/negotiate/propose", body);
    assert.equal(proposed.status, 201, show("POST", "/negotiate/propose", proposed));
    const id = proposed.json.id as string;
    assert.equal((await post("creator", `/negotiate/${id}/accept`, {})).status, 200);
    const committed = await post("creator", `/negotiate/${id}/commit-deploy`, {});
    assert.equal(committed.status, 201, show("POST", "commit-deploy", committed));
    assert.equal(committed.json.lane, "committed");
    const detail = await get("alice", `/discover/markets/${committed.json.market.address}`);
    assert.equal(detail.status, 200, show("GET", "market detail", detail));
    market = { ...detail.json, marketId: String(detail.json.marketId ?? committed.json.market.marketId) };
    assert.match(market.marketId, /^\d+$/);

    const sub = await post("alice", "/webhooks", { url: hooks.url("/hook/alice"), eventTypes: ["market.state_changed", "payout.credited"] });
    assert.equal(sub.status, 201, show("POST", "/webhooks", sub));
    hooks.secret("/hook/alice", sub.json.secret);

    // Bob follows the market's data lane over SSE (market channel only).
    lane = new EventSource(`${base}/events/stream?markets=${market.marketId}&execution=false`, {
      fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, Authorization: `Bearer ${agents.bob!.key}` } }),
    });
    lane.addEventListener("market:state", (e) => laneStates.push(JSON.parse(e.data) as Json));
    let ready = false;
    lane.addEventListener("ready", () => (ready = true));
    await until("the market lane's ready event", () => (ready ? true : undefined));

    // The operator appoints a council (one wallet); it will stay silent.
    const council = await admin("PUT", "/council", { members: [freshAccount().address] });
    assert.equal(council.members.length, 1);

    const s = await state();
    assert.equal(s.state, "open");
    const propose = (s.availableActions as Json[]).find((a) => a.action === "propose");
    assert.equal(propose?.allowed, false, "alice is not the creator");
  });

  it("two agents trade; claims before the market is final are NOT_CLAIMABLE_YET and move nothing", async () => {
    const a = await post("alice", "/trade/prepare", { market: market.address, outcome: 0, side: "buy", shares: String(40n * PM), slippageBps: 500 });
    assert.equal(a.status, 201, show("POST", "/trade/prepare (alice YES)", a));
    const b = await post("bob", "/trade/prepare", { market: market.address, outcome: 1, side: "buy", shares: String(25n * PM), slippageBps: 500 });
    assert.equal(b.status, 201, show("POST", "/trade/prepare (bob NO)", b));
    const before = await pm("alice");
    const batch = await post("alice", "/claims/batch", { markets: [{ chainId: stack.chainId, marketAddress: market.address }] });
    assert.equal(batch.status, 200, show("POST", "/claims/batch", batch));
    assert.equal(batch.json.claims[0].state, "SKIPPED");
    assert.equal(batch.json.claims[0].skippedReason, "NOT_CLAIMABLE_YET");
    assert.equal(batch.json.claims[0].claimed, false);
    assert.equal(batch.json.claims[0].amountAvailable, false);
    assert.equal(await pm("alice"), before);
  });

  it("time passes the close; the creator proposes YES; carol challenges with a bond equal to the creation bond", async () => {
    await advance("49h");
    assert.equal((await state()).state, "closed");
    const early = await post("carol", "/resolve/challenge", { market: market.address });
    assertProblem(early, "CONFLICT", "a challenge before any proposal");

    const p = await post("creator", "/resolve/propose", { market: market.address, outcome: 0 });
    assert.equal(p.status, 200, show("POST", "/resolve/propose", p));
    assert.equal(p.json.market.state, "creator_proposal");
    assert.ok(p.json.market.deadlines.challengeBy);

    const carol0 = await pm("carol");
    const c = await post("carol", "/resolve/challenge", { market: market.address });
    assert.equal(c.status, 200, show("POST", "/resolve/challenge", c));
    assert.equal(c.json.market.state, "human_voting");
    const bond = BigInt((await state()).bonds.creationBond);
    assert.equal(carol0 - (await pm("carol")), bond, "the challenger's bond equals the creation bond");
  });

  it("three wallets cast staked ballots (hidden until the deadline); a second ballot is refused and moves nothing", async () => {
    for (const [who, outcome] of [
      ["v1", 0],
      ["v2", 0],
      ["v3", 1],
    ] as const) {
      const before = await pm(who);
      const r = await post(who, "/resolve/vote", { market: market.address, outcome });
      assert.equal(r.status, 200, show("POST", `/resolve/vote (${who})`, r));
      assert.match(r.json.ballot.commitment, /^0x[0-9a-f]{64}$/);
      assert.equal(before - (await pm(who)), 10n * PM, "the stake is 10 PM");
    }
    const s = await state();
    assert.equal(s.state, "human_voting");
    assert.equal(s.vote.ballots, 3);
    const v1 = await pm("v1");
    const again = await post("v1", "/resolve/vote", { market: market.address, outcome: 1 });
    assertProblem(again, "CONFLICT", "a second ballot");
    assert.equal(again.json.reason, "ALREADY_VOTED");
    assert.equal(await pm("v1"), v1);
  });

  it("the deadline passes, the council stays silent: resolved YES and every holder paid at once", async () => {
    const batches = await call(base, "GET", "/ledger/batches?limit=1");
    beforeResolveNonce = batches.json.batches.length ? BigInt(batches.json.batches[0].nonce) : 0n;
    aliceBefore = await pm("alice");
    const bob0 = await pm("bob");
    await advance("49h");
    assert.equal((await state()).state, "council_review");
    await advance("25h");
    const s = await state();
    assert.equal(s.state, "resolved", JSON.stringify(s));
    assert.equal(s.verdict.outcome, 0, "the vote's unique result: the creator's YES");
    const fee = (40n * PM * BigInt(market.tradingRules.winningsExitFeeBps)) / 10_000n;
    assert.equal((await pm("alice")) - aliceBefore, 40n * PM - fee, "alice's 40 YES shares redeemed net of the winnings fee");
    assert.equal(await pm("bob"), bob0, "bob's NO shares pay nothing");
    assert.ok((await pm("v1")) > 1_000n * PM - 10n * PM, "a correct voter has its stake back and a reward");
  });

  it("claims: the payout is listed; once its batch is confirmed the receipt is corroborated and batch answers COMMITTED_SETTLED", async () => {
    const a = await get("alice", "/claims/available");
    assert.equal(a.status, 200, show("GET", "/claims/available", a));
    const item = (a.json.payouts as Json[]).find((p) => p.marketAddress === market.address);
    assert.ok(item, show("GET", "/claims/available", a));
    assert.equal(item.amountSource, "ledger");
    assert.equal(item.claimed, true);
    assert.equal(item.status, "claimed");
    assert.equal(a.json.projection.source, "indexer");

    const receipt = await until(
      "a corroborated receipt (the payout's batch confirmed on chain)",
      async () => {
        const r = await get("alice", `/claims/receipts?marketAddress=${market.address}`);
        assert.equal(r.status, 200, show("GET", "/claims/receipts", r));
        const x = (r.json.receipts as Json[])[0];
        return x?.authority === "committed_ledger" ? x : undefined;
      },
      () => "",
      90_000,
    );
    assert.equal(receipt.movementKey, item.id);
    assert.equal(receipt.settlement, "committed");
    assert.equal(receipt.holderDisposition, "closed");
    assert.equal(BigInt(receipt.amount), BigInt(item.amount));

    const batch = await post("alice", "/claims/batch", { markets: [{ chainId: stack.chainId, marketAddress: market.address }] });
    assert.equal(batch.status, 200, show("POST", "/claims/batch", batch));
    assert.equal(batch.json.claims[0].state, "SKIPPED");
    assert.equal(batch.json.claims[0].skippedReason, "COMMITTED_SETTLED");
    assert.equal(batch.json.claims[0].claimed, true);
    assert.equal(batch.json.claims[0].amountAvailable, true);
    const sim = await post("alice", "/claims/simulate", { markets: [{ chainId: stack.chainId, marketAddress: market.address }] });
    assert.equal(sim.status, 200, show("POST", "/claims/simulate", sim));
    const sweep = await post("alice", "/claims/sweep", {});
    assert.equal(sweep.status, 200, show("POST", "/claims/sweep", sweep));
    const again = await pm("alice");
    assert.equal(again - aliceBefore, BigInt(item.amount), "no claim route credits twice");
  });

  it("`npx decode` of the batch holding the payouts reports rootOk and commitmentOk", async (t) => {
    const finder = payoutBatchFinder({
      batches: async () => (await call(base, "GET", "/ledger/batches?limit=50")).json.batches as Json[],
      after: beforeResolveNonce,
      account: agents.alice!.ledgerAccount,
      async decode(txHash) {
        const out = await decodeCli([txHash, "--rpc", stack.rpcUrl, "--ledger", ledger, "--json"]);
        assert.equal(out.code, 0, `npx decode ${txHash} --json exited ${out.code}: ${out.stderr.slice(-800)}`);
        return JSON.parse(out.stdout.trim().split("\n").at(-1)!) as Json;
      },
    });
    const found = await until("a confirmed batch whose decoded payload holds alice's RESOLUTION_PAYOUT", finder.step, finder.checked, 120_000);
    assert.equal(found.decoded.rootOk, true);
    assert.equal(found.decoded.commitmentOk, true);
    assert.equal(found.decoded.root, found.batch.root);
    assert.equal(String(found.payout.marketId), String(market.marketId));
    t.diagnostic(`payouts in batch ${found.batch.nonce} (tx ${found.batch.txHash}): ${JSON.stringify(found.payout)}`);
  });

  it("alice's proof from /api/v1/ledger/proof verifies on chain, and her YES shares are gone from it", async () => {
    const client = createPublicClient({ transport: http(stack.rpcUrl) });
    const yesAsset = (BigInt(market.marketId) << 8n) | 0n;
    let verified = false;
    for (let attempt = 0; attempt < 10 && !verified; attempt++) {
      const res = await fetch(`${stack.origin}/api/v1/ledger/proof/${agents.alice!.ledgerAccount}`);
      assert.equal(res.status, 200);
      const body = (await res.json()) as { root: Hex; leaves: { assetId: string; balance: string; proof: Hex[] }[] };
      const root = await client.readContract({ address: ledger, abi: committedLedgerAbi, functionName: "ledgerRoot" });
      if (body.root !== root) {
        await new Promise((r) => setTimeout(r, 1_000));
        continue;
      }
      assert.ok(
        body.leaves.some((l) => l.assetId === "0"),
        "a PM leaf",
      );
      assert.equal(
        body.leaves.find((l) => BigInt(l.assetId) === yesAsset),
        undefined,
        "the redeemed YES shares left the ledger",
      );
      for (const l of body.leaves) {
        const ok = await client.readContract({
          address: ledger,
          abi: committedLedgerAbi,
          functionName: "verifyBalance",
          args: [agents.alice!.ledgerAccount as Address, BigInt(l.assetId), BigInt(l.balance), l.proof],
        });
        assert.equal(ok, true, `verifyBalance of asset ${l.assetId}`);
      }
      verified = true;
    }
    assert.ok(verified, "the proof's root never matched ledgerRoot()");
  });

  it("the market data lane carried every state change after the subscription, in order", async () => {
    const want = ["closed", "creator_proposal", "challenge", "human_voting", "council_review", "resolved"];
    await until(
      "market:state frames up to resolved",
      () => (laneStates.some((f) => f.data.state === "resolved") ? true : undefined),
      () => laneStates.map((f) => f.data.state),
    );
    // The market's listing announcement (state `open`) is published after commit-deploy answers, so it may reach the
    // lane after the subscription above or before it: leading `open` frames are that announcement, not a change.
    const changes = laneStates.slice(laneStates.findIndex((f) => f.data.state !== "open"));
    assert.deepEqual(
      changes.map((f) => f.data.state),
      want,
    );
    for (const f of laneStates) {
      assert.equal(f.type, "market:state");
      assert.equal(f.channel, `market:${market.marketId}`);
      assert.equal(f.data.marketId, String(market.marketId));
    }
    const seqs = laneStates.map((f) => f.seq as number);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
      "the channel's seqs increase",
    );
    assert.deepEqual(
      changes.map((f) => f.data.previous),
      ["open", ...want.slice(0, -1)],
    );
  });

  it("alice's webhook received every state change of the market and her payout, signed", async () => {
    const mine = () => hooks.deliveries.filter((d) => d.path === "/hook/alice");
    const payout = await until(
      "payout.credited to alice",
      () => mine().find((d) => d.message?.type === "payout.credited"),
      () => ({
        deliveries: mine().map((d) => d.message?.type ?? d.error),
        stack: stack
          .tail(400)
          .split("\n")
          .filter((l) => /"level":(40|50)|webhook|lifecycle/i.test(l))
          .slice(-8),
      }),
      60_000,
    );
    const available = (await get("alice", "/claims/available")).json.payouts as Json[];
    assert.equal(payout.message!.data.movementKey, available.find((p) => p.marketAddress === market.address)!.id, "the holder can reconcile it");
    const states = mine()
      .filter((d) => d.message?.type === "market.state_changed" && d.message.data.marketId === String(market.marketId))
      .map((d) => d.message!.data.state);
    for (const s of ["closed", "creator_proposal", "human_voting", "council_review", "resolved"]) assert.ok(states.includes(s), `state ${s} in ${states}`);
    for (const d of mine()) assert.equal(d.error, null, `delivery failed verification: ${d.error}`);
  });

  it("stops on SIGTERM and leaves no process behind", async () => {
    lane?.close();
    const report = await stack.stop();
    assert.equal(report.exit, 0, `exit of npm start after SIGTERM; last lines:\n${stack.tail(30)}`);
    assert.deepEqual(report.leftover, [], "processes of the stack still running after SIGTERM");
  });
});
