import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { privateKeyToAccount } from "viem/accounts";
import { openTestDatabase } from "../../test/support/db";
import { DEV_OPERATOR_KEY } from "../dev-accounts";
import { BatcherConfigError, batcherOptionsFrom, openBatcher, type BatcherConfig } from "./config";

const config: BatcherConfig = {
  rpcUrl: "http://127.0.0.1:9",
  operatorKey: DEV_OPERATOR_KEY,
  intervalMs: 750,
  maxOps: 42,
  snapshotEvery: 900,
  ledger: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  fromBlock: 7n,
  treasury: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
};

describe("batcher configuration", () => {
  it("takes interval, batch size, snapshot spacing, RPC, operator, ledger and treasury from the config the service passes in", async () => {
    const db = await openTestDatabase();
    try {
      const opts = batcherOptionsFrom(db, config);
      assert.equal(opts.intervalMs, 750);
      assert.equal(opts.maxOps, 42);
      assert.equal(opts.snapshotEvery, 900);
      assert.equal(opts.rpcUrl, "http://127.0.0.1:9");
      assert.equal(opts.fromBlock, 7n);
      assert.equal(opts.treasury, "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
      const batcher = await openBatcher(db, config);
      assert.equal(batcher.chain.account.address, privateKeyToAccount(DEV_OPERATOR_KEY).address);
      assert.equal(batcher.chain.ledger, config.ledger);
      assert.deepEqual(await batcher.batches(), []);
      assert.equal(await batcher.publishOnce(), null, "an empty journal publishes nothing and needs no chain");
    } finally {
      await db.close();
    }
  });

  it("refuses a bad value, naming the field", async () => {
    const db = await openTestDatabase({ migrate: false });
    try {
      assert.throws(
        () => batcherOptionsFrom(db, { ...config, intervalMs: 10 }),
        (e: Error) => e instanceof BatcherConfigError && /intervalMs/.test(e.message),
      );
      assert.throws(
        () => batcherOptionsFrom(db, { ...config, operatorKey: "0x12" }),
        (e: Error) => e instanceof BatcherConfigError && /operatorKey/.test(e.message),
      );
      assert.throws(
        () => batcherOptionsFrom(db, { ...config, ledger: "nope" }),
        (e: Error) => e instanceof BatcherConfigError && /ledger/.test(e.message),
      );
    } finally {
      await db.close();
    }
  });
});
