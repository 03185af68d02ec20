import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY } from "../api/config";
import { committedLedgerAbi, playMoneyAbi } from "../generated/abis";
import { freePort } from "../test/support/ports";
import { deployAll } from "./deploy";
import { loadDeployment } from "./deployments";
import { startLocalChain } from "./stack/chain";
import { stopChild } from "./stack/children";
import { deploymentSchema } from "../api/discovery-docs/deployment";

const dir = mkdtempSync(join(tmpdir(), "pm-deploy-"));
after(() => rmSync(dir, { recursive: true, force: true }));

async function deployOnFreshChain(outDir: string) {
  const port = await freePort();
  const chain = await startLocalChain({ port, chainId: 8453 });
  try {
    const rpcUrl = `http://127.0.0.1:${port}`;
    const operator = privateKeyToAccount(DEV_OPERATOR_KEY).address;
    const record = await deployAll({ rpcUrl, deployerKey: DEV_DEPLOYER_KEY, operatorAddress: operator, treasuryAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", outDir });
    const client = createPublicClient({ transport: http(rpcUrl) });
    const ledger = record.contracts.CommittedLedger.address;
    const onChainOperator = await client.readContract({ address: ledger, abi: committedLedgerAbi, functionName: "operator" });
    const pm = record.contracts.PlayMoney.address;
    const role = await client.readContract({ address: pm, abi: playMoneyAbi, functionName: "MINTER_ROLE" });
    const operatorMints = await client.readContract({ address: pm, abi: playMoneyAbi, functionName: "hasRole", args: [role, operator] });
    return { record, onChainOperator, operatorMints };
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
    const file = deploymentSchema.parse(JSON.parse(readFileSync(join(dir, "a", "8453.json"), "utf8")));
    for (const name of ["CommittedLedger", "PlayMoney", "OutcomeToken", "BinaryFactory", "TernaryFactory", "TestUSDC", "RouterImplementation", "Router:USDC", "Router:PM"]) {
      assert.ok(file.contracts[name].blockNumber > 0, name);
    }
    assert.deepEqual(file.collaterals.map((c) => [c.symbol, c.router]), [["USDC", file.contracts["Router:USDC"].address], ["PM", file.contracts["Router:PM"].address]]);
    assert.equal(file.routerInterface?.functions.executeTradeIntent.signature, "executeTradeIntent((address,address,uint8,bool,uint256,uint256,uint256,uint256),bytes)");
    assert.equal(loadDeployment(8453, join(dir, "a")).contracts.TernaryFactory.address, file.contracts.TernaryFactory.address);
    const second = await deployOnFreshChain(join(dir, "b"));
    assert.deepEqual(
      Object.fromEntries(Object.entries(second.record.contracts).map(([k, v]) => [k, v.address])),
      Object.fromEntries(Object.entries(first.record.contracts).map(([k, v]) => [k, v.address])),
    );
  });
});
