/**
 * USDC on a developer's chain, against a real Hardhat node: the test token planted at Base's canonical address (code
 * and constructor storage, its EIP-712 domain bound to the new address), which USDC each kind of chain gets (the
 * mintable TestUSDC refused off a local chain), the dev wallets funded through the balance slot, and
 * POST /admin/v1/usdc/fund (local chains only; a bad body changes nothing; absent on a live chain).
 */
import { strict as assert } from "node:assert";
import { createServer, type Server } from "node:http";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createPublicClient, getAddress, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ConfigError } from "../../api/config";
import { testUSDCAbi } from "../../generated/abis";
import { deploymentFile } from "../../decoder/deployment";
import { deployAll } from "../../relayer/deploy";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY, DEV_TREASURY_ADDRESS } from "../../relayer/dev-accounts";
import { assertDevNode, CANONICAL_USDC, findBalanceSlot } from "../../relayer/dev-usdc";
import { startLocalChain } from "./chain";
import { stopChild, type Child } from "./children";
import { freePort } from "../../test/support/ports";
import { startTestService, stopTestService, type Json, type TestService } from "../../test/support/service";
import { DEV_WALLET_USDC, devWallets, fundDevWallets, usdcPlan } from "./usdc";

const BASE_USDC = CANONICAL_USDC[8453]!;

describe("USDC on a developer's chain", () => {
  // Its own chain id, so deployments/<chainId>.json never touches the development one.
  const chainId = 930_000 + Math.floor(Math.random() * 60_000);
  let chain: Child;
  let rpcUrl: string;
  let client: ReturnType<typeof createPublicClient>;
  let usdc: Address;
  const read = <T>(functionName: string, args: unknown[] = []) =>
    client.readContract({ address: usdc, abi: testUSDCAbi, functionName: functionName as never, args: args as never }) as Promise<T>;

  before(async () => {
    const port = await freePort();
    rpcUrl = `http://127.0.0.1:${port}`;
    chain = await startLocalChain({ port, chainId });
    client = createPublicClient({ transport: http(rpcUrl) });
  });
  after(async () => {
    if (chain) await stopChild(chain);
    rmSync(deploymentFile(chainId), { force: true });
  });

  it("chooses the USDC by chain: planted on a local chain, the chain's own where it has code, refused live without it", async () => {
    const own = { rpcUrl, CHAIN_ID: 8453 };
    assert.deepEqual(await usdcPlan(own), { kind: "plant", at: BASE_USDC });
    assert.deepEqual(await usdcPlan({ rpcUrl, CHAIN_ID: chainId }), { kind: "deploy" }, "no canonical USDC: a TestUSDC of its own");
    for (const [id, why] of [
      [84532, /no USDC at 0x036CbD53842c5426634e7929541eC2318f3dCF7e: the mintable TestUSDC is refused off a local chain/],
      [chainId, /no USDC at a known canonical address: the mintable TestUSDC is refused off a local chain/],
    ] as const) {
      await assert.rejects(
        usdcPlan({ rpcUrl, CHAIN_ID: id, RPC_URL: "https://mainnet.base.org" }),
        (err) => err instanceof ConfigError && why.test(err.message),
      );
    }
  });

  it("plants the test USDC at the canonical address with its constructor's storage and a domain bound there", async () => {
    const record = await deployAll({
      rpcUrl,
      deployerKey: DEV_DEPLOYER_KEY as Hex,
      operatorAddress: privateKeyToAccount(DEV_OPERATOR_KEY as Hex).address,
      treasuryAddress: DEV_TREASURY_ADDRESS,
      usdc: { kind: "plant", at: BASE_USDC },
    });
    usdc = record.collaterals.find((c) => c.symbol === "USDC")!.token;
    assert.equal(usdc, BASE_USDC);
    assert.equal(record.contracts.TestUSDC!.address, BASE_USDC);
    assert.equal(record.contracts.TestUSDC!.txHash, undefined, "the template's transaction is not the planted token's");
    assert.equal(await read<string>("name"), "USD Coin (test)");
    assert.equal(await read<string>("symbol"), "USDC");
    assert.equal(await read<number>("decimals"), 6);
    const [, name, version, domainChainId, verifyingContract] = await read<[Hex, string, string, bigint, Address]>("eip712Domain");
    assert.deepEqual([name, version, domainChainId, getAddress(verifyingContract)], ["USD Coin", "2", BigInt(chainId), BASE_USDC]);
    assert.deepEqual(await usdcPlan({ rpcUrl, CHAIN_ID: 8453 }), { kind: "existing", at: BASE_USDC }, "planted once, the chain's own after");
  });

  it("funds the dev wallets by writing the balance slot", async () => {
    assert.equal(await findBalanceSlot(client, usdc), 0, "OpenZeppelin's ERC-20 keeps balances at slot 0");
    const wallets = await fundDevWallets(rpcUrl, usdc);
    assert.deepEqual(wallets, devWallets());
    for (const w of wallets) assert.equal(await read<bigint>("balanceOf", [w]), DEV_WALLET_USDC);
  });

  it("refuses the dev-node writes on a node that is not a development node", async () => {
    const fake: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const { id } = JSON.parse(body) as { id: number };
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ jsonrpc: "2.0", id, result: "Geth/v1.14.0-stable/linux-amd64/go1.22" }));
      });
    });
    await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
      await assert.rejects(assertDevNode(createPublicClient({ transport: http(url) }), "the mintable TestUSDC"), /Geth.*refused off a local chain/);
    } finally {
      fake.close();
    }
  });

  describe("POST /admin/v1/usdc/fund", () => {
    let t: TestService;
    const admin = async (svc: TestService, body: unknown) => {
      const token = readFileSync(join(svc.dir, "admin-token"), "utf8").trim();
      const res = await fetch(`http://127.0.0.1:${svc.svc.port}/admin/v1/usdc/fund`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as Json };
    };
    before(async () => {
      t = await startTestService({ CHAIN_ID: String(chainId), RPC_URL: rpcUrl, INDEXER_ENABLED: "false", SEED_DEMO_MARKETS: "false" });
    });
    after(async () => {
      if (t) await stopTestService(t);
    });

    it("adds USDC (default 1,000) and gas to a wallet; a bad body changes nothing", async () => {
      const wallet = getAddress("0x000000000000000000000000000000000000f00d");
      const r = await admin(t, { address: wallet, amount: "2500000" });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      assert.deepEqual(r.json, { address: wallet, token: BASE_USDC, added: "2500000", balance: "2500000" });
      assert.equal(await client.getBalance({ address: wallet }), 10n ** 18n);
      assert.equal((await admin(t, { address: wallet })).json.balance, "1002500000");
      for (const bad of [{ address: "0x1234" }, { address: wallet, amount: "-5" }, { address: wallet, amount: "1.5" }, { address: wallet, extra: 1 }]) {
        const refused = await admin(t, bad);
        assert.equal(refused.status, 400, JSON.stringify(bad));
        assert.equal(refused.json.code, "INVALID_PAYLOAD");
      }
      assert.equal(await read<bigint>("balanceOf", [wallet]), 1_002_500_000n);
    });

    it("is absent when RPC_URL names a live chain", async () => {
      const live = await startTestService({
        RPC_URL: "https://mainnet.base.org",
        DEPLOYER_PRIVATE_KEY: `0x${"11".repeat(32)}`,
        OPERATOR_PRIVATE_KEY: `0x${"22".repeat(32)}`,
        INDEXER_ENABLED: "false",
        SEED_DEMO_MARKETS: "false",
      });
      try {
        const r = await admin(live, { address: "0x000000000000000000000000000000000000f00d" });
        assert.equal(r.status, 404);
        assert.equal(r.json.code, "NOT_FOUND");
      } finally {
        await stopTestService(live);
      }
    });
  });
});
