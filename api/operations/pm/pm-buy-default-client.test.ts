/**
 * POST /pm/buy paid by the ecosystem's default client, `@x402/fetch` with `@x402/evm`, configured with nothing but
 * its signer: on chain 8453 with the test USDC planted at Base's canonical address (as `npm start` does,
 * docs/dev-chain.md), its default spend controls accept the requirements and the purchase settles. The same client
 * refuses a USDC at any other address, which is why the stack plants it there.
 */
import { strict as assert } from "node:assert";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { createPublicClient, getAddress, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { testUSDCAbi } from "../../../generated/abis";
import { manualClock } from "../../../relayer/clock";
import { deployAll } from "../../../relayer/deploy";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY, DEV_TREASURY_ADDRESS } from "../../../relayer/dev-accounts";
import { CANONICAL_USDC, fundUsdc } from "../../../relayer/dev-usdc";
import { startLocalChain } from "../../../test/support/stack/chain";
import { stopChild, type Child } from "../../../test/support/stack/children";
import { freePort } from "../../../test/support/ports";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";

const BASE_USDC = CANONICAL_USDC[8453]!;
const PRICE = 1_000_000n; // the 1,000 PM bundle: $1.00, within the client's default $1 cap

describe("POST /pm/buy with the default @x402/fetch client (chain 8453, USDC at Base's address)", () => {
  const dir = mkdtempSync(join(tmpdir(), "pm-x402-default-"));
  let chain: Child;
  let t: TestService;
  let client: ReturnType<typeof createPublicClient>;
  let buyer: LocalAgent;
  const usdcOf = (who: Address) => client.readContract({ address: BASE_USDC, abi: testUSDCAbi, functionName: "balanceOf", args: [who] });
  const buy = (pay: typeof fetch) =>
    pay(`${t.svc.baseUrl}/pm/buy`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${buyer.apiKey}`, "idempotency-key": randomUUID() },
      body: JSON.stringify({ pm: 1_000 }),
    });

  before(async () => {
    const port = await freePort();
    const rpcUrl = `http://127.0.0.1:${port}`;
    chain = await startLocalChain({ port, chainId: 8453 });
    client = createPublicClient({ transport: http(rpcUrl) });
    // Its own deployments folder: chain 8453 is the developer's, whose deployments/8453.json stays untouched.
    const deployments = join(dir, "deployments");
    await deployAll({
      rpcUrl,
      deployerKey: DEV_DEPLOYER_KEY as Hex,
      operatorAddress: privateKeyToAccount(DEV_OPERATOR_KEY as Hex).address,
      treasuryAddress: DEV_TREASURY_ADDRESS,
      outDir: deployments,
      usdc: { kind: "plant", at: BASE_USDC },
    });
    // The authorization window is checked against the service clock and the chain's block time: start both at now.
    t = await startTestService(
      { CHAIN_ID: "8453", RPC_URL: rpcUrl, DEPLOYMENTS_DIR: deployments, INDEXER_ENABLED: "false", SEED_DEMO_MARKETS: "false" },
      { clock: manualClock(Date.now()) },
    );
    buyer = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "default-client-buyer" });
    await fundUsdc(client, BASE_USDC, [getAddress(buyer.walletAddress)], 5n * PRICE);
  });
  after(async () => {
    if (t) await stopTestService(t);
    if (chain) await stopChild(chain);
    rmSync(dir, { recursive: true, force: true });
  });

  it("pays without any configuration and is credited the bundle", async () => {
    const signer = privateKeyToAccount(buyer.walletPrivateKey!);
    const pay = wrapFetchWithPayment(fetch, registerExactEvmScheme(new x402Client(), { signer })) as typeof fetch;
    const treasuryBefore = await usdcOf(DEV_TREASURY_ADDRESS);
    const res = await buy(pay);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.status, "credited");
    assert.ok(res.headers.get("payment-response"), "the settlement travels back in PAYMENT-RESPONSE");
    assert.equal(await usdcOf(getAddress(buyer.walletAddress)), 4n * PRICE);
    assert.equal((await usdcOf(DEV_TREASURY_ADDRESS)) - treasuryBefore, PRICE);
  });

  it("the same client refuses a USDC at any other address: only the default asset passes its spend controls", async () => {
    const signer = privateKeyToAccount(buyer.walletPrivateKey!);
    const x402 = registerExactEvmScheme(new x402Client(), { signer });
    const elsewhere = {
      x402Version: 2,
      resource: { url: `${t.svc.baseUrl}/pm/buy`, description: "PM", mimeType: "application/json" },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:8453" as const,
          asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
          amount: PRICE.toString(),
          payTo: DEV_TREASURY_ADDRESS,
          maxTimeoutSeconds: 300,
          extra: { name: "USD Coin", version: "2" },
        },
      ],
    };
    await assert.rejects(x402.createPaymentPayload(elsewhere), /only default assets/);
  });
});
