import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { privateKeyToAccount } from "viem/accounts";
import { loadConfig } from "../../api/config";
import { openTestDatabase } from "../../test/support/db";
import { batcherOptionsFrom, openBatcher } from "./from-config";

const deployment = {
  treasury: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" as const,
  contracts: { CommittedLedger: { address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" as const, blockNumber: 7, txHash: `0x${"1".repeat(64)}` as const } },
};

describe("batcher from the configuration", () => {
  it("takes interval, batch size, RPC and operator from the config and the ledger from the deployment", async () => {
    const config = loadConfig({ BATCH_INTERVAL_MS: "750", BATCH_MAX_OPS: "42", RPC_URL: "http://127.0.0.1:9" }, "/tmp");
    const db = await openTestDatabase();
    try {
      const opts = batcherOptionsFrom(db, config, deployment);
      assert.equal(opts.intervalMs, 750);
      assert.equal(opts.maxOps, 42);
      assert.equal(opts.rpcUrl, "http://127.0.0.1:9");
      assert.equal(opts.fromBlock, 7n);
      assert.equal(opts.treasury, "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
      const batcher = await openBatcher(db, config, deployment);
      assert.equal(batcher.chain.account.address, privateKeyToAccount(config.OPERATOR_PRIVATE_KEY as `0x${string}`).address);
      assert.equal(batcher.chain.ledger, deployment.contracts.CommittedLedger.address);
      assert.deepEqual(await batcher.batches(), []);
      assert.equal(await batcher.publishOnce(), null, "an empty journal publishes nothing and needs no chain");
    } finally {
      await db.close();
    }
  });
});
