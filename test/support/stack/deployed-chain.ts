/**
 * A Hardhat node (chain id 8453) with the whole stack's contracts deployed by `deployAll` and the dev keys: what the
 * tests of the deployment and of the on-chain markets start from. The deployment file goes to a temp dir removed on
 * stop.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateKeyToAccount } from "viem/accounts";
import type { Deployment } from "../../../decoder/deployment";
import { deployAll } from "../../../relayer/deploy";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY, DEV_TREASURY_ADDRESS } from "../../../relayer/dev-accounts";
import { freePort } from "../ports";
import { startLocalChain } from "../../../scripts/stack/chain";
import { stopChild } from "../../../scripts/stack/children";

export interface DeployedChain {
  rpcUrl: string;
  record: Deployment;
  stop(): Promise<void>;
}

export async function startDeployedChain(): Promise<DeployedChain> {
  const dir = mkdtempSync(join(tmpdir(), "pm-deployed-"));
  const port = await freePort();
  const chain = await startLocalChain({ port, chainId: 8453 });
  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(chain);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const operatorAddress = privateKeyToAccount(DEV_OPERATOR_KEY).address;
    const record = await deployAll({ rpcUrl, deployerKey: DEV_DEPLOYER_KEY, operatorAddress, treasuryAddress: DEV_TREASURY_ADDRESS, outDir: dir });
    return { rpcUrl, record, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
