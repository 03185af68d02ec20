/**
 * What the service passes to the relayer's batcher: the operator key, RPC, interval and batch size of the service's
 * configuration (OPERATOR_PRIVATE_KEY, RPC_URL / CHAIN_PORT, BATCH_INTERVAL_MS, BATCH_MAX_OPS, SNAPSHOT_EVERY) and the ledger of the
 * deployment. The relayer checks the values (relayer/batcher/config.ts); it reads neither the configuration nor the
 * deployment file.
 */
import type { BatcherConfig } from "../../../relayer/batcher/config";
import type { DeployedContract } from "../../../decoder/deployment";
import type { Config } from "../../config";

export function batcherConfigOf(
  config: Pick<Config, "rpcUrl" | "OPERATOR_PRIVATE_KEY" | "BATCH_INTERVAL_MS" | "BATCH_MAX_OPS" | "SNAPSHOT_EVERY">,
  ledger: Pick<DeployedContract, "address" | "blockNumber">,
  treasury: string,
): BatcherConfig {
  return {
    rpcUrl: config.rpcUrl,
    operatorKey: config.OPERATOR_PRIVATE_KEY,
    intervalMs: config.BATCH_INTERVAL_MS,
    maxOps: config.BATCH_MAX_OPS,
    snapshotEvery: config.SNAPSHOT_EVERY,
    ledger: ledger.address,
    fromBlock: BigInt(ledger.blockNumber),
    treasury,
  };
}
