/**
 * The batcher as the service runs it: operator key, RPC, interval and batch size from the configuration
 * (OPERATOR_PRIVATE_KEY, RPC_URL / CHAIN_PORT, BATCH_INTERVAL_MS, BATCH_MAX_OPS), ledger address, deployment block
 * and treasury from deployments/<chainId>.json. The engine must use the same treasury (payload header = fee sink).
 */
import type { Address, Hex } from "viem";
import type { Config } from "../../api/config";
import type { DeploymentRecord } from "../../scripts/deploy";
import type { Database } from "../db/client";
import { Batcher, type BatcherLog } from "./batcher";

export type BatcherConfig = Pick<Config, "rpcUrl" | "OPERATOR_PRIVATE_KEY" | "BATCH_INTERVAL_MS" | "BATCH_MAX_OPS">;

export function batcherOptionsFrom(db: Database, config: BatcherConfig, deployment: Pick<DeploymentRecord, "contracts" | "treasury">, log?: BatcherLog) {
  const ledger = deployment.contracts.CommittedLedger;
  if (!ledger) throw new Error("the deployment has no CommittedLedger");
  return {
    db,
    rpcUrl: config.rpcUrl,
    ledger: ledger.address,
    fromBlock: BigInt(ledger.blockNumber),
    operatorKey: config.OPERATOR_PRIVATE_KEY as Hex,
    treasury: deployment.treasury.toLowerCase() as Address,
    intervalMs: config.BATCH_INTERVAL_MS,
    maxOps: config.BATCH_MAX_OPS,
    log,
  };
}

/** Opens (rebuilds) the batcher; call `start()` to run it and `stop()` on shutdown. */
export function openBatcher(db: Database, config: BatcherConfig, deployment: Pick<DeploymentRecord, "contracts" | "treasury">, log?: BatcherLog): Promise<Batcher> {
  return Batcher.open(batcherOptionsFrom(db, config, deployment, log));
}
