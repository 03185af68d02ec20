/**
 * docs/dev-chain.md's walkthrough, step by step, against `npm start` on the stack's own chain (chain id 8453, the test
 * USDC planted at Base's canonical address): start; create a wallet (`npm run admin -- agent create`) and register a
 * second one (POST /register); fund it (`npm run admin -- usdc fund`); buy PM with the default `@x402/fetch` client;
 * create an ORDERBOOK market and trade it; advance past its close (`npm run admin -- time advance`) and see it
 * closed; decode the batch that carries the trade.
 */
import assert from "node:assert/strict";
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
  decodeCli,
  lastBatchNonce,
  registerDevAgent,
  usdcBalance,
  type DevAgent,
} from "./dev-chain";
import { startStack, type E2eStack } from "./stack";

const DAY = 86_400_000;

describe("docs/dev-chain.md walkthrough on the stack's own chain", { timeout: 900_000 }, () => {
  let stack: E2eStack;
  let creator: DevAgent;
  let trader: DevAgent;
  let market: Json;
  let tradedAfter: bigint;

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
      description: "Resolves YES when the developer's walkthrough sees it closed.",
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
    market = committed.json.market;

    tradedAfter = await lastBatchNonce(stack);
    const fill = await crossOnce(stack, market, creator, trader);
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

  it("7. decodes the batch that carries the trade (npx decode against the local chain)", async () => {
    const batch = await confirmedBatchAfter(stack, tradedAfter);
    const out = await decodeCli([batch.txHash, "--rpc", stack.rpcUrl, "--deployments", stack.deploymentsDir, "--json"]);
    assert.equal(out.code, 0, `npx decode exited ${out.code}: ${out.stderr.slice(-800)}`);
    const decoded = JSON.parse(out.stdout.trim().split("\n").at(-1)!) as Json;
    assert.equal(decoded.rootOk, true);
    assert.equal(decoded.root, batch.root);
  });
});
