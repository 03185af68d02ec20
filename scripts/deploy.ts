/**
 * `tsx scripts/deploy.ts [--rpc <url>]`: deploys the service's contracts (relayer/deploy.ts) and writes
 * `deployments/<chainId>.json`; prints the artifact. Keys and treasury come from DEPLOYER_PRIVATE_KEY,
 * OPERATOR_PRIVATE_KEY and TREASURY_ADDRESS (Hardhat's dev accounts by default); the chain from --rpc, else RPC_URL,
 * else the local chain on CHAIN_PORT.
 */
import { parseArgs } from "node:util";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { configSchema } from "../api/config";
import { deployAll } from "../relayer/deploy";
import { scriptEnv } from "./env";
import { usdcPlan } from "./stack/usdc";

const USAGE = "usage: tsx scripts/deploy.ts [--rpc <url>]   (default: RPC_URL, else http://127.0.0.1:CHAIN_PORT)";

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { rpc: { type: "string" }, help: { type: "boolean", short: "h" } } });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const env = scriptEnv(
    configSchema.pick({ RPC_URL: true, CHAIN_PORT: true, DEPLOYER_PRIVATE_KEY: true, OPERATOR_PRIVATE_KEY: true, TREASURY_ADDRESS: true }).shape,
  );
  const rpcUrl = values.rpc ?? env.RPC_URL ?? `http://127.0.0.1:${env.CHAIN_PORT}`;
  const chainId = await createPublicClient({ transport: http(rpcUrl) }).getChainId();
  const record = await deployAll({
    rpcUrl,
    // The same USDC as `npm start` picks (docs/dev-chain.md): never the mintable TestUSDC on a live chain.
    usdc: await usdcPlan({ rpcUrl, CHAIN_ID: chainId, RPC_URL: values.rpc ?? env.RPC_URL }),
    deployerKey: env.DEPLOYER_PRIVATE_KEY,
    operatorAddress: privateKeyToAccount(env.OPERATOR_PRIVATE_KEY).address,
    treasuryAddress: env.TREASURY_ADDRESS,
  });
  console.log(JSON.stringify(record, null, 2));
}

main(process.argv.slice(2)).catch((err) => {
  console.error(`deploy failed: ${(err as Error).message}`);
  process.exit(1);
});
