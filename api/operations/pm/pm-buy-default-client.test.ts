/**
 * POST /pm/buy paid by the ecosystem's default client, `@x402/fetch` with `@x402/evm`, configured with nothing but
 * its signer: on chain 8453 with the test USDC planted at Base's canonical address (as `npm start` does,
 * docs/dev-chain.md), its default spend controls accept the requirements and the purchase settles. The same client
 * refuses a USDC at any other address, which is why the stack plants it there.
 */
import { strict as assert } from "node:assert";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { type createPublicClient, getAddress, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { testUSDCAbi } from "../../../generated/abis";
import { DEV_TREASURY_ADDRESS } from "../../../relayer/dev-accounts";
import { fundUsdc } from "../../../relayer/dev-usdc";
import { BASE_USDC, startBaseLikeService, type BaseLikeService } from "../../../test/support/base-like-service";
import type { TestService } from "../../../test/support/service";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";

const PRICE = 1_000_000n; // the 1,000 PM bundle: $1.00, within the client's default $1 cap

describe("POST /pm/buy with the default @x402/fetch client (chain 8453, USDC at Base's address)", () => {
  let stack: BaseLikeService | undefined;
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
    stack = await startBaseLikeService();
    ({ t, client } = stack);
    buyer = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "default-client-buyer" });
    await fundUsdc(client, BASE_USDC, [getAddress(buyer.walletAddress)], 5n * PRICE);
  });
  after(async () => {
    await stack?.stop();
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
