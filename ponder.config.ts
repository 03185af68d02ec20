/**
 * Ponder configuration: the chain and contracts the indexer projects, read from the deployment artifact.
 * Run by `npm start` as `ponder start --root indexer --config ../ponder.config.ts` (see scripts/stack/indexer.ts).
 *
 * Environment: CHAIN_ID (8453), RPC_URL (or http://127.0.0.1:CHAIN_PORT), DEPLOYMENT_FILE
 * (deployments/<CHAIN_ID>.json), DATABASE_URL (Postgres) or PONDER_PGLITE_DIR (embedded, the default),
 * PONDER_POLLING_MS (100: a local chain mines on demand, so polling often keeps lag low).
 *
 * LmsrMarket uses Ponder's factory pattern: every MarketCreated of the binary and ternary factories adds the new
 * market's address to the indexed set, so markets created while the indexer runs are projected without a restart.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createConfig, factory } from "ponder";
import { getAbiItem } from "viem";
import { committedLedgerAbi, intentRouterAbi, lmsrFactoryAbi, lmsrMarketAbi, outcomeTokenAbi } from "./generated/abis";

const chainId = Number(process.env.CHAIN_ID ?? 8453);
const rpc = process.env.RPC_URL ?? `http://127.0.0.1:${process.env.CHAIN_PORT ?? 8545}`;
const deploymentFile = resolve(__dirname, process.env.DEPLOYMENT_FILE ?? `deployments/${chainId}.json`);
const deployment = JSON.parse(readFileSync(deploymentFile, "utf8")) as {
  contracts: Record<string, { address: `0x${string}`; blockNumber: number }>;
};

function contract(name: string) {
  const c = deployment.contracts[name];
  if (!c) throw new Error(`${deploymentFile} has no ${name}`);
  return { address: c.address, startBlock: c.blockNumber };
}

const factories = ["BinaryFactory", "TernaryFactory"].map(contract);
const routers = Object.entries(deployment.contracts).filter(([name]) => name.startsWith("Router:")).map(([name]) => contract(name));
const firstBlock = (cs: { startBlock: number }[]) => Math.min(...cs.map((c) => c.startBlock));

export default createConfig({
  database: process.env.DATABASE_URL
    ? { kind: "postgres", connectionString: process.env.DATABASE_URL }
    : { kind: "pglite", directory: process.env.PONDER_PGLITE_DIR ?? resolve(__dirname, ".data", "ponder") },
  chains: {
    base: { id: chainId, rpc, pollingInterval: Number(process.env.PONDER_POLLING_MS ?? 100), disableCache: true },
  },
  contracts: {
    CommittedLedger: { chain: "base", abi: committedLedgerAbi, ...contract("CommittedLedger") },
    OutcomeToken: { chain: "base", abi: outcomeTokenAbi, ...contract("OutcomeToken") },
    LmsrFactory: { chain: "base", abi: lmsrFactoryAbi, address: factories.map((f) => f.address), startBlock: firstBlock(factories) },
    LmsrMarket: {
      chain: "base",
      abi: lmsrMarketAbi,
      address: factory({
        address: factories.map((f) => f.address),
        event: getAbiItem({ abi: lmsrFactoryAbi, name: "MarketCreated" }),
        parameter: "market",
      }),
      startBlock: firstBlock(factories),
    },
    IntentRouter: { chain: "base", abi: intentRouterAbi, address: routers.map((r) => r.address), startBlock: firstBlock(routers) },
  },
});
