/**
 * LocalFacilitator against a real Hardhat node with TestUSDC (EIP-3009), paid by the official x402 client: the
 * accepted requirements must be ours, and a settlement whose send may have reached the chain is never reported as
 * refused; the retry finds that transfer instead of paying again.
 */
import { strict as assert } from "node:assert";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { createPublicClient, createWalletClient, custom, getAddress, http, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY } from "../../../../relayer/dev-accounts";
import { testUSDCAbi } from "../../../../generated/abis";
import { rpcChain } from "../../../../relayer/rpc-chain";
import { deployAll } from "../../../../relayer/deploy";
import { startLocalChain } from "../../../../scripts/stack/chain";
import { stopChild, type Child } from "../../../../scripts/stack/children";
import { freePort } from "../../../../test/support/ports";
import { deploymentFile } from "../../protocol/deployment";
import { exactRequirements } from "./exact-evm";
import { LocalFacilitator } from "./facilitator";

const TREASURY = getAddress("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
const PRICE = 1_000_000n;

describe("LocalFacilitator (@x402/evm exact scheme on TestUSDC)", () => {
  const chainId = 920_000 + Math.floor(Math.random() * 70_000);
  let chain: Child;
  let rpcUrl: string;
  let client: ReturnType<typeof createPublicClient>;
  let usdc: Address;
  let requirements: PaymentRequirements;
  const payerKey = generatePrivateKey();
  const payer = privateKeyToAccount(payerKey).address;

  /** A facilitator whose sends fail after reaching the node when `dropSendAnswers` (a connection lost mid-send). */
  const facilitator = (dropSendAnswers = false) => {
    const viemChain = rpcChain(chainId, rpcUrl);
    const node = http(rpcUrl)({ chain: viemChain });
    const transport = custom({
      async request(args: { method: string; params?: unknown }) {
        const answer = await node.request(args as never);
        if (dropSendAnswers && args.method === "eth_sendRawTransaction") throw new Error("socket hang up");
        return answer;
      },
    });
    const wallet = createWalletClient({ chain: viemChain, transport, account: privateKeyToAccount(DEV_DEPLOYER_KEY as Hex) });
    return new LocalFacilitator({ client: client as never, wallet, fromBlock: 0n });
  };
  const usdcOf = (who: Address) => client.readContract({ address: usdc, abi: testUSDCAbi, functionName: "balanceOf", args: [who] });
  const pay = async (): Promise<PaymentPayload> => {
    const spend = x402Client.fromConfig({
      schemes: [],
      spendControls: { allowedAssets: [{ network: `eip155:${chainId}`, asset: usdc, maxAmountPerPayment: PRICE.toString() }] },
    });
    const x402 = new x402HTTPClient(registerExactEvmScheme(spend, { signer: privateKeyToAccount(payerKey) }));
    return x402.createPaymentPayload({
      x402Version: 2,
      resource: { url: "http://127.0.0.1/pm/buy", description: "PM", mimeType: "application/json" },
      accepts: [requirements],
    });
  };

  before(async () => {
    const port = await freePort();
    rpcUrl = `http://127.0.0.1:${port}`;
    chain = await startLocalChain({ port, chainId });
    const deployment = await deployAll({
      rpcUrl,
      deployerKey: DEV_DEPLOYER_KEY as Hex,
      operatorAddress: privateKeyToAccount(DEV_OPERATOR_KEY as Hex).address,
      treasuryAddress: TREASURY,
    });
    usdc = getAddress(deployment.collaterals.find((c) => c.symbol === "USDC")!.token);
    client = createPublicClient({ chain: rpcChain(chainId, rpcUrl), transport: http(rpcUrl) });
    const deployer = createWalletClient({ chain: rpcChain(chainId, rpcUrl), transport: http(rpcUrl), account: privateKeyToAccount(DEV_DEPLOYER_KEY as Hex) });
    await client.waitForTransactionReceipt({
      hash: await deployer.writeContract({ address: usdc, abi: testUSDCAbi, functionName: "mint", args: [payer, 10n * PRICE] }),
    });
    requirements = exactRequirements({ chainId, asset: usdc, payTo: TREASURY, amount: PRICE, domain: { name: "USD Coin", version: "2" } });
  });
  after(async () => {
    if (chain) await stopChild(chain);
    rmSync(deploymentFile(chainId), { force: true });
  });

  it("refuses a payment that accepted another asset, payee or amount than ours", async () => {
    const payment = await pay();
    const other = getAddress(privateKeyToAccount(generatePrivateKey()).address);
    const f = facilitator();
    assert.equal(
      (await f.verify({ ...payment, accepted: { ...payment.accepted, asset: other } }, requirements)).invalidReason,
      "invalid_exact_evm_asset_mismatch",
    );
    assert.equal(
      (await f.verify({ ...payment, accepted: { ...payment.accepted, payTo: other } }, requirements)).invalidReason,
      "invalid_exact_evm_recipient_mismatch",
    );
    assert.equal(
      (await f.verify({ ...payment, accepted: { ...payment.accepted, amount: "1" } }, requirements)).invalidReason,
      "invalid_exact_evm_authorization_value",
    );
    assert.deepEqual(await f.verify(payment, requirements), { isValid: true, payer });
  });

  it("throws rather than refuses when the send may have gone out; the retry finds that transfer and pays nothing more", async () => {
    const payment = await pay();
    const [payerBefore, payeeBefore] = [await usdcOf(payer), await usdcOf(TREASURY)];
    await assert.rejects(facilitator(true).settle(payment, requirements), /settlement not confirmed/);
    assert.equal(await usdcOf(TREASURY), payeeBefore + PRICE, "the lost answer hid a transfer that happened");

    const retried = await facilitator().settle(payment, requirements);
    assert.equal(retried.success, true, JSON.stringify(retried));
    const receipt = await client.getTransactionReceipt({ hash: retried.transaction as Hex });
    assert.equal(getAddress(receipt.to!), usdc);
    assert.deepEqual([await usdcOf(payer), await usdcOf(TREASURY)], [payerBefore - PRICE, payeeBefore + PRICE], "paid once");
  });
});
