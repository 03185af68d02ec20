/**
 * Step 2 of `npm start`: the contracts, deployed once per chain. `deployments/<chainId>.json` is reused while the
 * chain still has code at its ledger address; a fresh local chain (Hardhat keeps no state across runs) gets a new
 * deployment, which lands at the same addresses because the deployer's nonces replay in the same order.
 */
import { existsSync } from "node:fs";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Config } from "../../api/config";
import { readContractLocation } from "../../decoder/deployment";
import { deployAll } from "../../relayer/deploy";

export interface DeploymentHandle {
  file: string;
  chainId: number;
  deployedNow: boolean;
}

/** Deploys unless `<DEPLOYMENTS_DIR>/<CHAIN_ID>.json` names a ledger that the chain still has code for. */
export async function ensureDeployment(config: Config): Promise<DeploymentHandle> {
  const file = config.deploymentFile;
  const ledger = readContractLocation(config.deploymentsDir, config.CHAIN_ID, "CommittedLedger");
  if (ledger) {
    const code = await createPublicClient({ transport: http(config.rpcUrl) }).getCode({ address: ledger.address });
    if (code && code !== "0x") return { file, chainId: config.CHAIN_ID, deployedNow: false };
  }
  await deployAll({
    rpcUrl: config.rpcUrl,
    deployerKey: config.DEPLOYER_PRIVATE_KEY,
    operatorAddress: privateKeyToAccount(config.OPERATOR_PRIVATE_KEY).address,
    treasuryAddress: config.TREASURY_ADDRESS,
    outDir: config.deploymentsDir,
  });
  if (!existsSync(file)) throw new Error(`deployment finished but ${file} was not written (is CHAIN_ID ${config.CHAIN_ID} the chain's id?)`);
  return { file, chainId: config.CHAIN_ID, deployedNow: true };
}
