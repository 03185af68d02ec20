import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { loadConfig } from "../../config";
import { batcherConfigOf } from "./batcher-config";

describe("batcher configuration from the service's", () => {
  it("takes interval, batch size, snapshot spacing, RPC and operator from the config and the ledger from the deployment", () => {
    const config = loadConfig({ BATCH_INTERVAL_MS: "750", BATCH_MAX_OPS: "42", SNAPSHOT_EVERY: "900", RPC_URL: "http://127.0.0.1:9" }, "/tmp");
    const ledger = { address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" as const, blockNumber: 7 };
    assert.deepEqual(batcherConfigOf(config, ledger, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"), {
      rpcUrl: "http://127.0.0.1:9",
      operatorKey: config.OPERATOR_PRIVATE_KEY,
      intervalMs: 750,
      maxOps: 42,
      snapshotEvery: 900,
      ledger: ledger.address,
      fromBlock: 7n,
      treasury: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    });
  });
});
