/**
 * docs/dev-chain.md's walkthrough, step by step, against `npm start` on the stack's own chain (chain id 8453, the test
 * USDC planted at Base's canonical address): start; create a wallet (`npm run admin -- agent create`) and register a
 * second one (POST /register); fund it (`npm run admin -- usdc fund`); buy PM with the default `@x402/fetch` client;
 * create an ORDERBOOK market and trade it; advance past its close (`npm run admin -- time advance`) and see it
 * closed; the creator proposes YES (`curl` against POST /resolve/propose); advance past the challenge window, so the
 * unchallenged proposal is final and the YES holder is paid in the same command; see the payout (balance,
 * GET /claims/available, GET /claims/receipts); decode the batch carrying the trade and the one carrying the payout.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createPublicClient, http, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { call, show, type Json } from "./client";
import {
  adminCli,
  BASE_USDC,
  buyPmWithDefaultClient,
  confirmedBatchAfter,
  crossOnce,
  lastBatchNonce,
  registerDevAgent,
  usdcBalance,
  type DevAgent,
} from "./dev-chain";
import { decodeCli, payoutBatchFinder } from "./decode-cli";
import { until } from "./receivers";
import { startStack, type E2eStack } from "./stack";

const DAY = 86_400_000;
const PM = 1_000_000n;

/** `curl -s -X POST <url>` with a bearer key and a fresh Idempotency-Key, as docs/dev-chain.md writes the step. */
function curlPost(url: string, key: string, body: unknown): Promise<{ status: number; json: Json }> {
  const args = ["-s", "-X", "POST", url, "-H", `Authorization: Bearer ${key}`, "-H", "Content-Type: application/json"];
  args.push("-H", `Idempotency-Key: ${randomUUID()}`, "-d", JSON.stringify(body), "-w", "\n%{http_code}");
  return new Promise((resolve, reject) => {
    execFile("curl", args, { timeout: 60_000 }, (err, stdout) => {
      if (err) return reject(err);
      const cut = stdout.lastIndexOf("\n");
      resolve({ status: Number(stdout.slice(cut + 1)), json: JSON.parse(stdout.slice(0, cut)) as Json });
    });
  });
}

/** The caller's available PM (GET /orderbook/balances). */
async function availablePm(stack: E2eStack, agent: DevAgent): Promise<bigint> {
  const r = await call(stack.baseUrl, "GET", "/orderbook/balances", undefined, { key: agent.key });
  assert.equal(r.status, 200, show("GET", "/orderbook/balances", r));
  return BigInt((r.json.balances as Json[]).find((b) => b.asset === "PM")!.available);
}

/** The last line of a `--json` CLI run, parsed. */
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!) as Json;

describe("docs/dev-chain.md walkthrough on the stack's own chain", { timeout: 900_000 }, () => {
  let stack: E2eStack;
  let creator: DevAgent;
  let trader: DevAgent;
  let market: Json;
  let tradedAfter: bigint;
  let resolvedAfter: bigint;
  let traderBefore: bigint;
  let payout: Json;

  before(
    async () => {
      stack = await startStack({ chainId: 8453, env: { REGISTRATION_WALLET_OPEN: "true", SEED_DEMO_MARKETS: "false" } });
    },
    { timeout: 300_000 },
  );
  after(async () => {
    const report = await stack?.stop();
    if (report) assert.deepEqual(report.leftover, []);
  });

  it("1. starts with the test USDC planted at Base's canonical address", async () => {
    const deployment = JSON.parse(readFileSync(join(stack.deploymentsDir, "8453.json"), "utf8")) as Json;
    assert.equal(deployment.collaterals.find((c: Json) => c.symbol === "USDC").token.toLowerCase(), BASE_USDC.toLowerCase());
    assert.equal(deployment.contracts.TestUSDC.address.toLowerCase(), BASE_USDC.toLowerCase());
    const code = await createPublicClient({ transport: http(stack.rpcUrl) }).getCode({ address: BASE_USDC });
    assert.ok(code && code.length > 2, "code at the canonical address");
    assert.match(stack.tail(400), /USDC\s+0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 \(planted TestUSDC\)/);
  });

  it("2. creates a wallet and an agent with the admin CLI, and registers a second one over the API", async () => {
    const made = await adminCli(stack, ["agent", "create", "--name", "walk-creator", "--json"]);
    assert.equal(made.code, 0, made.stderr);
    const a = JSON.parse(made.stdout.trim().split("\n").at(-1)!) as Json;
    creator = { key: a.apiKey, ledgerAccount: a.ledgerAccount, wallet: privateKeyToAccount(a.walletPrivateKey as Hex) };
    trader = await registerDevAgent(stack, `walk-trader-${Date.now()}`, privateKeyToAccount(generatePrivateKey()));
    assert.equal(await usdcBalance(stack.rpcUrl, BASE_USDC, trader.wallet.address), 0n);
  });

  it("3. funds the new wallet with USDC (npm run admin -- usdc fund)", async () => {
    const funded = await adminCli(stack, ["usdc", "fund", trader.wallet.address, "5000000"]);
    assert.equal(funded.code, 0, funded.stderr);
    assert.match(funded.stdout, /\+5000000 USDC units/);
    assert.equal(await usdcBalance(stack.rpcUrl, BASE_USDC, trader.wallet.address), 5_000_000n);
  });

  it("4. buys PM with the default @x402/fetch client (no configuration: the canonical USDC on eip155:8453)", async () => {
    const bought = await buyPmWithDefaultClient(stack, trader, 1_000);
    assert.equal(bought.status, 200, JSON.stringify(bought.json));
    assert.equal(await usdcBalance(stack.rpcUrl, BASE_USDC, trader.wallet.address), 4_000_000n);
  });

  it("5. creates an ORDERBOOK market (negotiate) and trades it", async () => {
    const body = {
      title: "Will the walkthrough close this market?",
      description: "Resolves YES when the developer's walkthrough sees it closed (the creator proposes it).",
      category: "TECH",
      closeTime: new Date(Date.now() + DAY).toISOString(),
      resolutionSource: { type: "creator", note: "the walkthrough" },
      externalId: `walk-${Date.now()}`,
      pricingModel: "ORDERBOOK",
      collateral: "PM",
    };
    const c = (method: string, path: string, b?: unknown) => call(stack.baseUrl, method, path, b, { key: creator.key });
    const pre = await c("POST", "/negotiate/preflight", body);
    assert.deepEqual(pre.json.failures, [], show("POST", "/negotiate/preflight", pre));
    const proposed = await c("POST", "/negotiate/propose", body);
    assert.equal(proposed.status, 201, show("POST", "/negotiate/propose", proposed));
    const id = proposed.json.id as string;
    assert.equal((await c("POST", `/negotiate/${id}/accept`, {})).status, 200);
    const prepared = await c("POST", `/negotiate/${id}/prepare-deploy`, {});
    assert.equal(prepared.status, 200, show("POST", "prepare-deploy", prepared));
    assert.deepEqual(prepared.json.transactions ?? [], [], "the committed lane needs no transaction of the creator");
    const committed = await c("POST", `/negotiate/${id}/commit-deploy`, {});
    assert.equal(committed.status, 201, show("POST", "commit-deploy", committed));
    const detail = await call(stack.baseUrl, "GET", `/discover/markets/${committed.json.market.address}`);
    assert.equal(detail.status, 200, show("GET", "market detail", detail));
    market = { ...detail.json, marketId: String(detail.json.marketId ?? committed.json.market.marketId) };

    // The trader rests a YES bid, the creator crosses it with NO: the trader holds 10 YES shares.
    tradedAfter = await lastBatchNonce(stack);
    const fill = await crossOnce(stack, market, trader, creator);
    assert.equal(fill.size, "10000000");
  });

  it("6. advances past close (npm run admin -- time advance 2d) and sees the market closed", async () => {
    const moved = await adminCli(stack, ["time", "advance", "2d", "--json"]);
    assert.equal(moved.code, 0, moved.stderr);
    const a = JSON.parse(moved.stdout.trim().split("\n").at(-1)!) as Json;
    const closing = (a.transitions as Json[]).find((t) => t.source === "market-lifecycle" && /: open -> closed/.test(String(t.detail)));
    assert.ok(closing, `the advance ran the market's close: ${JSON.stringify(a.transitions)}`);
    const seen = await call(stack.baseUrl, "GET", `/discover/markets/${market.address}`);
    assert.equal(seen.json.state, "closed", show("GET", "market", seen));
    const late = await call(
      stack.baseUrl,
      "POST",
      "/orderbook/place-order",
      { market: market.address, outcome: 0, side: "buy", priceBps: "4000", size: "1000000", timeInForce: "GTC" },
      { key: trader.key },
    );
    assert.equal(late.json.code, "MARKET_CLOSED", show("POST", "place-order after close", late));
  });

  it("7. the creator proposes YES (curl POST /resolve/propose with its key)", async () => {
    const p = await curlPost(`${stack.baseUrl}/resolve/propose`, creator.key, { market: market.address, outcome: 0 });
    assert.equal(p.status, 200, JSON.stringify(p.json));
    assert.equal(p.json.market.state, "creator_proposal");
    assert.ok(p.json.market.deadlines.challengeBy, JSON.stringify(p.json.market));
  });

  it("8. advances past the challenge window (npm run admin -- time advance 2d): unchallenged, the proposal is final", async () => {
    resolvedAfter = await lastBatchNonce(stack);
    traderBefore = await availablePm(stack, trader);
    const moved = await adminCli(stack, ["time", "advance", "2d", "--json"]);
    assert.equal(moved.code, 0, moved.stderr);
    const transitions = lastJson(moved.stdout).transitions as Json[];
    assert.ok(
      transitions.some((t) => t.source === "market-lifecycle" && /: creator_proposal -> resolved/.test(String(t.detail))),
      `the advance made the proposal final: ${JSON.stringify(transitions)}`,
    );
    const s = await call(stack.baseUrl, "GET", `/discover/markets/${market.address}/resolution-state`);
    assert.equal(s.status, 200, show("GET", "resolution-state", s));
    assert.equal(s.json.state, "resolved");
    assert.equal(s.json.verdict.outcome, 0);
  });

  it("9. sees the payout: the YES holder's balance, GET /claims/available and a corroborated GET /claims/receipts", async () => {
    const fee = (10n * PM * BigInt(market.tradingRules.winningsExitFeeBps)) / 10_000n;
    assert.equal((await availablePm(stack, trader)) - traderBefore, 10n * PM - fee, "10 YES shares redeemed net of the winnings fee");
    const a = await call(stack.baseUrl, "GET", "/claims/available", undefined, { key: trader.key });
    assert.equal(a.status, 200, show("GET", "/claims/available", a));
    payout = (a.json.payouts as Json[]).find((p) => p.marketAddress === market.address)!;
    assert.ok(payout, show("GET", "/claims/available", a));
    assert.equal(payout.status, "claimed");
    assert.equal(BigInt(payout.amount), 10n * PM - fee);
    const receipt = await until(
      "a corroborated receipt (the payout's batch confirmed on chain)",
      async () => {
        const r = await call(stack.baseUrl, "GET", `/claims/receipts?marketAddress=${market.address}`, undefined, { key: trader.key });
        assert.equal(r.status, 200, show("GET", "/claims/receipts", r));
        const x = (r.json.receipts as Json[])[0];
        return x?.authority === "committed_ledger" ? x : undefined;
      },
      () => "",
      120_000,
    );
    assert.equal(receipt.movementKey, payout.id);
    assert.equal(BigInt(receipt.amount), BigInt(payout.amount));
  });

  it("10. decodes the batches that carry the trade and the payout (npx decode against the local chain)", async (t) => {
    const decode = async (txHash: string) => {
      const out = await decodeCli([txHash, "--rpc", stack.rpcUrl, "--deployments", stack.deploymentsDir, "--json"]);
      assert.equal(out.code, 0, `npx decode ${txHash} exited ${out.code}: ${out.stderr.slice(-800)}`);
      return lastJson(out.stdout);
    };
    const traded = await confirmedBatchAfter(stack, tradedAfter);
    const decodedTrade = await decode(traded.txHash);
    assert.equal(decodedTrade.rootOk, true);
    assert.equal(decodedTrade.root, traded.root);

    const finder = payoutBatchFinder({
      batches: async () => (await call(stack.baseUrl, "GET", "/ledger/batches?limit=50")).json.batches as Json[],
      after: resolvedAfter,
      account: trader.ledgerAccount,
      decode,
    });
    const found = await until("a confirmed batch whose decoded payload holds the trader's RESOLUTION_PAYOUT", finder.step, finder.checked, 120_000);
    assert.equal(found.decoded.rootOk, true);
    assert.equal(found.decoded.commitmentOk, true);
    assert.equal(found.decoded.root, found.batch.root);
    assert.equal(String(found.payout.marketId), String(market.marketId));
    t.diagnostic(`payout in batch ${found.batch.nonce} (tx ${found.batch.txHash}): ${JSON.stringify(found.payout)}`);
  });
});
