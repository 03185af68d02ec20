/**
 * Ponder configuration: the chain and contracts the indexer projects, read from the deployment artifact.
 * Run by `npm start` as `ponder start --root indexer --config ../ponder.config.ts` (see scripts/stack/indexer.ts).
 *
 * Environment (checked in indexer/env.ts): CHAIN_ID (8453), RPC_URL (or http://127.0.0.1:CHAIN_PORT), DEPLOYMENT_FILE
 * (deployments/<CHAIN_ID>.json, read with decoder/deployment.ts), DATABASE_URL (Postgres) or PONDER_PGLITE_DIR
 * (embedded, the default), PONDER_POLLING_MS (100: a local chain mines on demand, so polling often keeps lag low).
 *
 * LmsrMarket uses Ponder's factory pattern: every MarketCreated of the binary and ternary factories adds the new
 * market's address to the indexed set, so markets created while the indexer runs are projected without a restart.
 */
import { createConfig, factory } from "ponder";
import { getAbiItem } from "viem";
import { readDeployment } from "./decoder/deployment";
import { committedLedgerAbi, intentRouterAbi, lmsrFactoryAbi, lmsrMarketAbi, outcomeTokenAbi } from "./generated/abis";
import { readIndexerEnv } from "./indexer/env";

const env = readIndexerEnv(__dirname);
const deployment = readDeployment(env.deploymentFile);

function contract(name: string) {
  const c = deployment.contracts[name];
  if (!c) throw new Error(`${env.deploymentFile} has no ${name}`);
  return { address: c.address, startBlock: c.blockNumber };
}

const factories = ["BinaryFactory", "TernaryFactory"].map(contract);
const routers = Object.entries(deployment.contracts)
  .filter(([name]) => name.startsWith("Router:"))
  .map(([name]) => contract(name));
const firstBlock = (cs: { startBlock: number }[]) => Math.min(...cs.map((c) => c.startBlock));

export default createConfig({
  database: env.database,
  chains: {
    base: { id: env.chainId, rpc: env.rpcUrl, pollingInterval: env.pollingMs, disableCache: true },
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
