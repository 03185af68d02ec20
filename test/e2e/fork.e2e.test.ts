/**
 * `npm start` on a fork, offline (docs/dev-chain.md): a plain Hardhat node stands in for Base (chain id 8453, tens of
 * millions of blocks through `hardhat_mine`, the project's TestUSDC planted at Base's canonical USDC address), and the
 * stack runs with FORK_URL pointing at it. It comes up with the forked chain's id, uses the canonical USDC it finds
 * there instead of deploying one, funds the dev wallets through the token's balance slot, starts the indexer at the
 * deployment block, sells PM over x402 to the default `@x402/fetch` client, trades, commits a batch, and
 * `npx decode` replays that batch against the fork's RPC.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createPublicClient, createWalletClient, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEV_DEPLOYER_KEY } from "../../relayer/dev-accounts";
import { plantTestUsdc } from "../../relayer/dev-usdc";
import { rpcChain } from "../../relayer/rpc-chain";
import { startLocalChain } from "../../scripts/stack/chain";
import { stopChild, type Child } from "../../scripts/stack/children";
import { freePort } from "../support/ports";
import { call, show, type Json } from "./client";
import { decodeCli } from "./decode-cli";
import {
  BASE_USDC,
  buyPmWithDefaultClient,
  confirmedBatchAfter,
  crossOnce,
  DEV_WALLET_USDC,
  devWallet,
  lastBatchNonce,
  openOrderbookMarket,
  registerDevAgent,
  usdcBalance,
  type DevAgent,
} from "./dev-chain";
import { until } from "./receivers";
import { startStack, type E2eStack } from "./stack";

const ROOT = join(__dirname, "..", "..");
/** The upstream's height: a chain "with tens of millions of blocks". */
const UPSTREAM_BLOCKS = 20_000_000n;
/** Mined one by one on top: more than Ponder's finality depth (30 blocks on this chain). */
const REAL_TAIL_BLOCKS = 100;

describe("npm start with FORK_URL: a fork that behaves like Base (offline)", { timeout: 900_000 }, () => {
  let upstream: Child;
  let upstreamUrl: string;
  let forkBlock: bigint;
  let stack: E2eStack;
  let deployment: Json;
  let buyer: DevAgent;
  let maker: DevAgent;
  let startMs = 0;

  before(
    async () => {
      const port = await freePort();
      upstreamUrl = `http://127.0.0.1:${port}`;
      upstream = await startLocalChain({ port, chainId: 8453 });
      const chain = rpcChain(8453, upstreamUrl);
      const client = createPublicClient({ chain, transport: http(upstreamUrl) });
      // Blocks 0 s apart: the head's time stays the wall clock's, as on Base (x402 authorizations are timed by it).
      await client.request({ method: "hardhat_mine" as never, params: [`0x${UPSTREAM_BLOCKS.toString(16)}`, "0x0"] as never });
      // "Base" has USDC at the canonical address: the project's TestUSDC code, planted there as on our own node.
      const artifact = JSON.parse(readFileSync(join(ROOT, "artifacts", "contracts", "tokens", "TestUSDC.sol", "TestUSDC.json"), "utf8"));
      const wallet = createWalletClient({ chain, transport: http(upstreamUrl), account: privateKeyToAccount(DEV_DEPLOYER_KEY as Hex) });
      const template = await client.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode }) });
      await plantTestUsdc(client, template.contractAddress!, BASE_USDC);
      // hardhat_mine's blocks are placeholders whose parentHash is zero: a real chain's are linked. The indexer walks
      // back from the head to its finality depth and would read that as a reorg, so the last blocks are real ones.
      for (let i = 0; i < REAL_TAIL_BLOCKS; i++) await client.request({ method: "evm_mine" as never });
      forkBlock = await client.getBlockNumber();

      const started = Date.now();
      stack = await startStack({ chainId: 8453, env: { FORK_URL: upstreamUrl, REGISTRATION_WALLET_OPEN: "true" } });
      deployment = JSON.parse(readFileSync(join(stack.deploymentsDir, "8453.json"), "utf8"));
      startMs = Date.now() - started;
    },
    { timeout: 400_000 },
  );
  after(async () => {
    const report = await stack?.stop();
    if (upstream) await stopChild(upstream);
    if (report) assert.deepEqual(report.leftover, [], "nothing of the stack outlives it");
  });

  it("runs the forked chain's id at the forked height, with the canonical USDC as collateral and nothing deployed before the fork", async (t) => {
    t.diagnostic(`npm start on a fork of a ${UPSTREAM_BLOCKS}-block chain: ready in ${startMs} ms`);
    const fork = createPublicClient({ transport: http(stack.rpcUrl) });
    assert.equal(await fork.getChainId(), 8453);
    assert.ok((await fork.getBlockNumber()) >= forkBlock, "the fork continues from the upstream's head");
    assert.match(stack.tail(400), new RegExp(`a fork of ${upstreamUrl} at block ${forkBlock}`));
    const usdc = (deployment.collaterals as Json[]).find((c) => c.symbol === "USDC");
    assert.equal(usdc?.token.toLowerCase(), BASE_USDC.toLowerCase(), "the canonical USDC is the collateral");
    assert.equal(deployment.contracts.TestUSDC, undefined, "no test token was deployed on the fork");
    assert.equal(deployment.contracts.USDC.blockNumber > Number(forkBlock) - 1, true);
    // The indexer starts at the deployment, not at block 0 of a 20-million-block chain.
    for (const [name, c] of Object.entries(deployment.contracts as Record<string, Json>)) {
      assert.ok(c.blockNumber >= Number(forkBlock), `${name} at block ${c.blockNumber}, before the fork block ${forkBlock}`);
    }
    const collateral = await call(stack.baseUrl, "GET", "/pm/bundles");
    assert.equal(collateral.json.payment?.asset?.toLowerCase(), BASE_USDC.toLowerCase(), show("GET", "/pm/bundles", collateral));
    assert.equal(collateral.json.payment?.network, "eip155:8453");
  });

  it("has the indexer following the fork's head from the deployment block", async (t) => {
    assert.ok(stack.indexerUrl, "the ready block names the indexer");
    const head = await until(
      "the indexer's /status at or past the fork block",
      async () => {
        const res = await fetch(`${stack.indexerUrl}/status`).catch(() => null);
        const numbers = [...((await res?.text()) ?? "").matchAll(/"number"\s*:\s*"?(\d+)/g)].map((m) => BigInt(m[1]!));
        return numbers.find((n) => n >= forkBlock);
      },
      () => stack.tail(20),
      120_000,
    );
    t.diagnostic(`indexer at block ${head} (fork block ${forkBlock})`);
  });

  it("funded the dev wallets with the fork's USDC (balance slot), leaving the upstream untouched", async () => {
    for (const i of [0, 5, 9]) {
      assert.equal(await usdcBalance(stack.rpcUrl, BASE_USDC, devWallet(i).address), DEV_WALLET_USDC, `dev wallet #${i}`);
      assert.equal(await usdcBalance(upstreamUrl, BASE_USDC, devWallet(i).address), 0n, `upstream wallet #${i}`);
    }
  });

  it("sells PM over x402 to the default @x402/fetch client, paid in the canonical USDC", async () => {
    buyer = await registerDevAgent(stack, `fork-buyer-${Date.now()}`, devWallet(5));
    const treasury = deployment.treasury as Address;
    const before = await usdcBalance(stack.rpcUrl, BASE_USDC, treasury);
    const bought = await buyPmWithDefaultClient(stack, buyer, 1_000);
    assert.equal(bought.status, 200, JSON.stringify(bought.json));
    assert.ok(bought.paymentResponse, "the answer carries PAYMENT-RESPONSE");
    assert.equal(await usdcBalance(stack.rpcUrl, BASE_USDC, buyer.wallet.address), DEV_WALLET_USDC - 1_000_000n);
    assert.equal((await usdcBalance(stack.rpcUrl, BASE_USDC, treasury)) - before, 1_000_000n);
  });

  it("trades, commits a batch, and `npx decode` replays it against the fork's RPC", async () => {
    maker = await registerDevAgent(stack, `fork-maker-${Date.now()}`, devWallet(6));
    const market = await openOrderbookMarket(stack);
    const since = await lastBatchNonce(stack);
    const fill = await crossOnce(stack, market, maker, buyer);
    assert.equal(fill.size, "10000000");
    const batch = await confirmedBatchAfter(stack, since);
    const out = await decodeCli([batch.txHash, "--rpc", stack.rpcUrl, "--deployments", stack.deploymentsDir, "--json"]);
    assert.equal(out.code, 0, `npx decode exited ${out.code}: ${out.stderr.slice(-800)}`);
    const decoded = JSON.parse(out.stdout.trim().split("\n").at(-1)!) as Json;
    assert.equal(decoded.rootOk, true, out.stdout.slice(-800));
    assert.equal(decoded.root, batch.root);
  });
});
