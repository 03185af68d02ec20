import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createPublicClient, createWalletClient, http, keccak256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY } from "../relayer/dev-accounts";
import { committedLedgerAbi, participationDistributorAbi, playMoneyAbi } from "../generated/abis";
import { COMMUNITY_POOL_WEI, participationReleaseId } from "../relayer/participation-release";
import { freePort } from "../test/support/ports";
import { deployAll } from "../relayer/deploy";
import { startLocalChain } from "./stack/chain";
import { stopChild } from "./stack/children";
import { deploymentFile, deploymentSchema, readDeployment } from "../decoder/deployment";
import { buildTokenRelease } from "../api/domain/protocol/chains";
import { TokenSupplyReader } from "../api/domain/protocol/token-supply";
import { rpcChain } from "../relayer/rpc-chain";

const MINTED = 5_000_000n;

const dir = mkdtempSync(join(tmpdir(), "pm-deploy-"));
after(() => rmSync(dir, { recursive: true, force: true }));

async function deployOnFreshChain(outDir: string) {
  const port = await freePort();
  const chain = await startLocalChain({ port, chainId: 8453 });
  try {
    const rpcUrl = `http://127.0.0.1:${port}`;
    const operator = privateKeyToAccount(DEV_OPERATOR_KEY).address;
    const record = await deployAll({
      rpcUrl,
      deployerKey: DEV_DEPLOYER_KEY,
      operatorAddress: operator,
      treasuryAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      outDir,
    });
    const client = createPublicClient({ transport: http(rpcUrl) });
    const ledger = record.contracts.CommittedLedger.address;
    const onChainOperator = await client.readContract({ address: ledger, abi: committedLedgerAbi, functionName: "operator" });
    const pm = record.contracts.PlayMoney.address;
    const role = await client.readContract({ address: pm, abi: playMoneyAbi, functionName: "MINTER_ROLE" });
    const operatorMints = await client.readContract({ address: pm, abi: playMoneyAbi, functionName: "hasRole", args: [role, operator] });
    const deployerMints = await client.readContract({
      address: pm,
      abi: playMoneyAbi,
      functionName: "hasRole",
      args: [role, privateKeyToAccount(DEV_DEPLOYER_KEY).address],
    });
    const distributor = record.contracts.ParticipationDistributor.address;
    const pool = await client.readContract({ address: pm, abi: playMoneyAbi, functionName: "balanceOf", args: [distributor] });
    const distributorSigns = await client.readContract({
      address: distributor,
      abi: participationDistributorAbi,
      functionName: "hasRole",
      args: [await client.readContract({ address: distributor, abi: participationDistributorAbi, functionName: "SIGNER_ROLE" }), operator],
    });
    // What the chain says about the PM deployment, to compare with what the artifact recorded.
    const pmBlockHash = (await client.getBlock({ blockNumber: BigInt(record.contracts.PlayMoney.blockNumber) })).hash;
    const pmCodeHash = keccak256((await client.getCode({ address: pm }))!);
    // The token-release supply is the chain's totalSupply: before and after the operator mints.
    const reader = new TokenSupplyReader(rpcUrl, () => 1_800_000_000_000);
    const supplyBefore = await reader.read(pm);
    const chain8453 = rpcChain(8453, rpcUrl);
    const wallet = createWalletClient({ account: privateKeyToAccount(DEV_OPERATOR_KEY), transport: http(rpcUrl), chain: chain8453 });
    const hash = await wallet.writeContract({ address: pm, abi: playMoneyAbi, functionName: "mint", args: [operator, MINTED] });
    assert.equal((await client.waitForTransactionReceipt({ hash })).status, "success");
    const supplyAfter = await new TokenSupplyReader(rpcUrl, () => 1_800_000_000_000).read(pm);
    return { record, onChainOperator, operatorMints, deployerMints, pool, distributorSigns, pmBlockHash, pmCodeHash, supplyBefore, supplyAfter };
  } finally {
    await stopChild(chain);
  }
}

describe("deployAll", () => {
  it("deploys on chain 8453, wires roles, writes a readable artifact, and lands at the same addresses on a fresh chain", async () => {
    const first = await deployOnFreshChain(join(dir, "a"));
    assert.equal(first.record.chainId, 8453);
    assert.equal(first.onChainOperator, privateKeyToAccount(DEV_OPERATOR_KEY).address);
    assert.equal(first.operatorMints, true);
    // The participation release's pool is stocked once; the deployer keeps no right to mint more.
    assert.equal(first.pool, COMMUNITY_POOL_WEI);
    assert.equal(first.deployerMints, false);
    assert.equal(first.distributorSigns, true);
    const file = deploymentSchema.parse(JSON.parse(readFileSync(join(dir, "a", "8453.json"), "utf8")));
    for (const name of [
      "CommittedLedger",
      "PlayMoney",
      "OutcomeToken",
      "BinaryFactory",
      "TernaryFactory",
      "TestUSDC",
      "RouterImplementation",
      "Router:USDC",
      "Router:PM",
      "ParticipationDistributor",
    ]) {
      assert.ok(file.contracts[name].blockNumber > 0, name);
    }
    assert.deepEqual(
      file.collaterals.map((c) => [c.symbol, c.router]),
      [
        ["USDC", file.contracts["Router:USDC"].address],
        ["PM", file.contracts["Router:PM"].address],
      ],
    );
    assert.equal(
      file.routerInterface?.functions.executeTradeIntent.signature,
      "executeTradeIntent((address,address,uint8,bool,uint256,uint256,uint256,uint256),bytes)",
    );
    assert.equal(readDeployment(deploymentFile(8453, join(dir, "a"))).contracts.TernaryFactory.address, file.contracts.TernaryFactory.address);
    for (const [name, c] of Object.entries(file.contracts)) assert.match(String(c.runtimeCodeHash), /^0x[0-9a-f]{64}$/, name);
    assert.equal(file.routerInterface?.runtimeCodeHash, file.contracts.RouterImplementation.runtimeCodeHash);

    // /discover/token-release serves the PM deployment's block hash, runtime code hash and live supply.
    assert.equal(first.supplyBefore.totalSupply, COMMUNITY_POOL_WEI);
    const release = buildTokenRelease(file, first.supplyAfter);
    assert.deepEqual(release.origin, {
      chainId: 8453,
      address: first.record.contracts.PlayMoney.address,
      fromBlock: first.record.contracts.PlayMoney.blockNumber,
      deploymentTxHash: first.record.contracts.PlayMoney.txHash,
      deploymentBlockHash: first.pmBlockHash,
      runtimeCodeHash: first.pmCodeHash,
    });
    assert.equal(release.token.totalSupplyWei, (COMMUNITY_POOL_WEI + MINTED).toString());
    assert.deepEqual(
      release.distributors.map((d) => [d.kind, d.address, d.releaseId]),
      [["participation_release", first.record.contracts.ParticipationDistributor.address, participationReleaseId(8453)]],
    );
    assert.equal(release.token.totalSupplyReadAt, new Date(1_800_000_000_000).toISOString());
    const second = await deployOnFreshChain(join(dir, "b"));
    assert.deepEqual(
      Object.fromEntries(Object.entries(second.record.contracts).map(([k, v]) => [k, v.address])),
      Object.fromEntries(Object.entries(first.record.contracts).map(([k, v]) => [k, v.address])),
    );
  });
});
