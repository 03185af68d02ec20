/**
 * deployAll's market wiring on a real Hardhat node: the factories start with the fee defaults the service publishes
 * (FEE_DEFAULTS), the OrderbookFactory is recorded and named by /discover/contracts, and the operator (the service's
 * sending key) holds the resolver role. Then the flow "creator resolved unchallenged, seed sweepable after finality"
 * with the service's key: create with a terms hash, trade, close, resolve, claim, sweep.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createPublicClient, createTestClient, createWalletClient, http, keccak256, parseEventLogs, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY } from "../relayer/dev-accounts";
import { buildContracts } from "../api/domain/protocol/chains";
import { lmsrFactoryAbi, lmsrMarketAbi, orderbookFactoryAbi, testUSDCAbi } from "../generated/abis";
import { FEE_DEFAULTS, FEE_POLICY_VERSIONS } from "../relayer/pricing/fees";
import { rpcChain } from "../relayer/rpc-chain";
import type { Deployment } from "../decoder/deployment";
import { startDeployedChain, type DeployedChain } from "../test/support/stack/deployed-chain";

/** Hardhat's well-known dev account #3 (public key material, local chains only): a trader. */
const TRADER_KEY: Hex = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
let stack: DeployedChain | undefined;
let rpcUrl = "";
let record: Deployment;

before(async () => {
  stack = await startDeployedChain();
  ({ rpcUrl, record } = stack);
});
after(async () => {
  await stack?.stop();
});

function clients() {
  const def = rpcChain(8453, rpcUrl);
  const pc = createPublicClient({ chain: def, transport: http(rpcUrl) });
  const wallet = (key: Hex) => createWalletClient({ chain: def, account: privateKeyToAccount(key), transport: http(rpcUrl) });
  return { pc, wallet, testClient: createTestClient({ chain: def, mode: "hardhat", transport: http(rpcUrl) }) };
}

describe("deployAll: market contracts", () => {
  it("starts the LMSR and order-book factories with FEE_DEFAULTS, records the OrderbookFactory and makes the operator a resolver", async () => {
    const { pc } = clients();
    const operator = privateKeyToAccount(DEV_OPERATOR_KEY).address;
    for (const name of ["BinaryFactory", "TernaryFactory"]) {
      const address = record.contracts[name].address;
      const fees = await pc.readContract({ address, abi: lmsrFactoryAbi, functionName: "feeDefaults" });
      assert.deepEqual(fees, [FEE_DEFAULTS.lmsr.buyFeeBps, FEE_DEFAULTS.lmsr.sellExitFeeBps, FEE_DEFAULTS.lmsr.winningsExitFeeBps], name);
      assert.equal(await pc.readContract({ address, abi: lmsrFactoryAbi, functionName: "isResolver", args: [operator] }), true, name);
    }
    const ob = record.contracts.OrderbookFactory;
    assert.match(String(ob?.runtimeCodeHash), /^0x[0-9a-f]{64}$/);
    const d = FEE_DEFAULTS.orderbook;
    assert.deepEqual(await pc.readContract({ address: ob.address, abi: orderbookFactoryAbi, functionName: "feeDefaults" }), [
      FEE_POLICY_VERSIONS.indexOf(d.feePolicyVersion),
      d.placeFeeBps,
      d.routerTakerFeeBps,
      d.operatorBatchFeeBps,
      d.winningsExitFeeBps,
    ]);
    assert.equal(FEE_POLICY_VERSIONS.indexOf("notional-v1"), 0, "the contract's FeePolicyVersion order");
    const ledger = await pc.readContract({ address: ob.address, abi: orderbookFactoryAbi, functionName: "ledger" });
    assert.equal(ledger.toLowerCase(), record.contracts.CommittedLedger.address.toLowerCase());
    assert.equal(buildContracts(record).chains[0].factories.orderbook, ob.address);
  });

  it("creator resolved unchallenged: the operator resolves after close, the winner claims previewClaim, the operator sweeps the seed's residual to the creator", async () => {
    const { pc, wallet, testClient } = clients();
    const creator = wallet(DEV_DEPLOYER_KEY);
    const trader = wallet(TRADER_KEY);
    const operator = wallet(DEV_OPERATOR_KEY);
    const usdc = record.contracts.TestUSDC.address;
    const factory = record.contracts.BinaryFactory.address;
    const ok = async (hash: Hex) => {
      const receipt = await pc.waitForTransactionReceipt({ hash });
      assert.equal(receipt.status, "success");
      return receipt;
    };
    const balance = (who: Address) => pc.readContract({ address: usdc, abi: testUSDCAbi, functionName: "balanceOf", args: [who] });
    for (const w of [creator, trader]) {
      await ok(await w.writeContract({ address: usdc, abi: testUSDCAbi, functionName: "mint", args: [w.account.address, 10_000_000_000n] }));
      await ok(await w.writeContract({ address: usdc, abi: testUSDCAbi, functionName: "approve", args: [factory, 10_000_000_000n] }));
    }
    const terms = keccak256(toHex("negotiation 1: binary, USDC, seed 1000, closes in a day"));
    const closeTime = (await pc.getBlock()).timestamp + 86_400n;
    const createdReceipt = await ok(
      await creator.writeContract({
        address: factory,
        abi: lmsrFactoryAbi,
        functionName: "createMarket",
        args: [usdc, 1_000_000_000n, closeTime, terms, "Will the flow work?"],
      }),
    );
    const [created] = parseEventLogs({ abi: lmsrFactoryAbi, logs: createdReceipt.logs, eventName: "MarketCreated" });
    assert.equal(created.args.termsHash, terms);
    assert.equal(created.args.creator, creator.account.address);
    assert.equal(created.args.sellExitFeeBps, FEE_DEFAULTS.lmsr.sellExitFeeBps);
    const market = created.args.market;
    await ok(await trader.writeContract({ address: usdc, abi: testUSDCAbi, functionName: "approve", args: [market, 10_000_000_000n] }));
    await ok(
      await trader.writeContract({
        address: market,
        abi: lmsrMarketAbi,
        functionName: "buy",
        args: [1, 400_000_000n, 10_000_000_000n, trader.account.address],
      }),
    );

    await testClient.increaseTime({ seconds: 86_401 });
    await testClient.mine({ blocks: 1 });
    await ok(await operator.writeContract({ address: market, abi: lmsrMarketAbi, functionName: "resolve", args: [1] }));
    const [payout, fee] = await pc.readContract({ address: market, abi: lmsrMarketAbi, functionName: "previewClaim", args: [trader.account.address] });
    assert.deepEqual([payout, fee], [400_000_000n, 0n]);
    const traderBefore = await balance(trader.account.address);
    await ok(await trader.writeContract({ address: market, abi: lmsrMarketAbi, functionName: "redeemAll", args: [trader.account.address] }));
    assert.equal((await balance(trader.account.address)) - traderBefore, payout);

    const residual = await pc.readContract({ address: market, abi: lmsrMarketAbi, functionName: "surplus" });
    assert.ok(residual > 0n);
    const creatorBefore = await balance(creator.account.address);
    const sweep = await ok(await operator.writeContract({ address: market, abi: lmsrMarketAbi, functionName: "withdrawSurplus" }));
    const [swept] = parseEventLogs({ abi: lmsrMarketAbi, logs: sweep.logs, eventName: "SurplusWithdrawn" });
    assert.deepEqual([swept.args.creator, swept.args.amount], [creator.account.address, residual]);
    assert.equal((await balance(creator.account.address)) - creatorBefore, residual);
    assert.equal(await balance(market), 0n);
  });
});
