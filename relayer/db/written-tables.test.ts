import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { openTestDatabase } from "../../test/support/db";
import type { Database } from "./client";
import { writtenTables } from "./written-tables";

describe("writtenTables", () => {
  it("names the tables a statement writes, CTEs included, and none for reads", () => {
    assert.deepEqual(writtenTables(`SELECT m.*, m.updated_at FROM markets m WHERE id = $1 FOR UPDATE`), []);
    assert.deepEqual(writtenTables(`SELECT id FROM markets WHERE address = $1 FOR UPDATE SKIP LOCKED`), []);
    assert.deepEqual(
      writtenTables(`INSERT INTO api_idempotency (owner) VALUES ($1) ON CONFLICT (owner) DO UPDATE SET owner = EXCLUDED.owner RETURNING owner`),
      ["api_idempotency"],
    );
    assert.deepEqual(
      writtenTables(`WITH d AS (UPDATE api_idempotency SET state = 'done' RETURNING 1) INSERT INTO api_call_records (a) VALUES ($1)`).slice().sort(),
      ["api_call_records", "api_idempotency"],
    );
    assert.deepEqual(writtenTables(`update "public"."Markets" set state = $1`), ["markets"]);
    assert.deepEqual(writtenTables(`DELETE FROM api_keys WHERE id = $1; TRUNCATE TABLE market_trades`).slice().sort(), ["api_keys", "market_trades"]);
    assert.deepEqual(writtenTables(`CREATE TABLE x (id int); DROP SCHEMA y CASCADE`), ["*"]);
  });
});

describe("Database.onWrite", () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it("reports a statement's writes when it finished, a transaction's once it committed, a rolled-back one never", async () => {
    const seen: string[][] = [];
    const stop = db.onWrite((t) => seen.push([...t]));
    await db.query(`SELECT 1`);
    await db.query(`INSERT INTO api_secrets (name, value, created_at) VALUES ('w1', 'v', 1)`);
    assert.deepEqual(seen, [["api_secrets"]]);
    seen.length = 0;
    await db.transaction(async (tx) => {
      await tx.query(`UPDATE api_secrets SET value = 'v2' WHERE name = 'w1'`);
      assert.deepEqual(seen, [], "nothing before the commit");
    });
    assert.deepEqual(seen, [["api_secrets"]]);
    seen.length = 0;
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query(`DELETE FROM api_secrets WHERE name = 'w1'`);
        throw new Error("roll back");
      }),
      /roll back/,
    );
    assert.deepEqual(seen, []);
    stop();
    await db.query(`DELETE FROM api_secrets WHERE name = 'w1'`);
    assert.deepEqual(seen, []);
  });
});
