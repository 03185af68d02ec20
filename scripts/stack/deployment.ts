/**
 * Step 2 of `npm start`: the contracts, deployed once per chain. `deployments/<chainId>.json` is reused while the
 * chain still has code at its ledger address; a fresh local chain (Hardhat keeps no state across runs) gets a new
 * deployment, which lands at the same addresses because the deployer's nonces replay in the same order.
 */
import { existsSync } from "node:fs";
import { createPublicClient, http, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Config } from "../../api/config";
import { readContractLocation, readDeployment } from "../../decoder/deployment";
import { deployAll } from "../../relayer/deploy";
import { isLocalChain } from "../../relayer/local-chain";
import { canonicalUsdc } from "../../relayer/dev-usdc";
import { fundDevWallets, usdcPlan } from "./usdc";

export interface DeploymentHandle {
  file: string;
  chainId: number;
  deployedNow: boolean;
  /** The USDC collateral, and how it came to be there. */
  usdc: { address: Address; origin: "the chain's own" | "planted TestUSDC" | "TestUSDC" };
  /** Developer wallets funded with USDC just now (local chains, at deployment). */
  funded: Address[];
}

/** Deploys unless `<DEPLOYMENTS_DIR>/<CHAIN_ID>.json` names a ledger that the chain still has code for. */
export async function ensureDeployment(config: Config): Promise<DeploymentHandle> {
  const file = config.deploymentFile;
  const ledger = readContractLocation(config.deploymentsDir, config.CHAIN_ID, "CommittedLedger");
  if (ledger) {
    const code = await createPublicClient({ transport: http(config.rpcUrl) }).getCode({ address: ledger.address });
    if (code && code !== "0x") return { file, chainId: config.CHAIN_ID, deployedNow: false, usdc: usdcOf(file), funded: [] };
  }
  const usdc = await usdcPlan(config);
  const record = await deployAll({
    rpcUrl: config.rpcUrl,
    deployerKey: config.DEPLOYER_PRIVATE_KEY,
    operatorAddress: privateKeyToAccount(config.OPERATOR_PRIVATE_KEY).address,
    treasuryAddress: config.TREASURY_ADDRESS,
    outDir: config.deploymentsDir,
    usdc,
  });
  if (!existsSync(file)) throw new Error(`deployment finished but ${file} was not written (is CHAIN_ID ${config.CHAIN_ID} the chain's id?)`);
  const token = usdcOf(file);
  // A fork starts with the chain's balances: the developer wallets get USDC to pay x402 with (docs/dev-chain.md).
  const funded = isLocalChain(config) ? await fundDevWallets(config.rpcUrl, token.address) : [];
  return { file, chainId: record.chainId, deployedNow: true, usdc: token, funded };
}

function usdcOf(file: string): DeploymentHandle["usdc"] {
  const d = readDeployment(file);
  const address = d.collaterals.find((c) => c.symbol === "USDC")?.token;
  if (!address) throw new Error(`${file} names no USDC collateral`);
  const planted = canonicalUsdc(d.chainId)?.toLowerCase() === address.toLowerCase();
  const origin = d.contracts.USDC ? "the chain's own" : planted ? "planted TestUSDC" : "TestUSDC";
  return { address, origin };
}
