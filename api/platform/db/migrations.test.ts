import { strict as assert } from "node:assert";
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { openDatabase } from "../../../relayer/db/client";
import { migrate, readMigrations, RELAYER_MIGRATIONS_DIR } from "../../../relayer/db/migrate";
import { API_MIGRATIONS_DIR, migrateService, serviceMigrations } from "./migrations";

/**
 * The migrations as they were when every file sat in relayer/db/migrations. The bookkeeping table names a migration
 * by version and name, so these must never change and must keep this order: a database migrated then must open now.
 */
const ONE_FOLDER_LAYOUT = [
  "001_service_meta",
  "100_journal",
  "110_execution_reports_by_order",
  "200_api_core",
  "201_api_identity",
  "210_markets",
  "220_trade_intents",
  "230_content",
  "240_pm_purchases",
  "300_webhooks",
];

const tmp = mkdtempSync(join(tmpdir(), "svc-migrations-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("the service's migrations", () => {
  it("keep the ids and the order of the one-folder layout", () => {
    const ids = serviceMigrations().map((m) => `${m.version}_${m.name}`);
    assert.deepEqual(
      ids.filter((id) => ONE_FOLDER_LAYOUT.includes(id)),
      ONE_FOLDER_LAYOUT,
    );
  });

  it("each sit with their owner: the relayer's below 200, the service's from 200", () => {
    const versions = (dir: string) => readMigrations([dir]).map((m) => Number(m.version));
    assert.ok(
      versions(RELAYER_MIGRATIONS_DIR).every((v) => v < 200),
      "a service migration sits in relayer/db/migrations",
    );
    assert.ok(
      versions(API_MIGRATIONS_DIR).every((v) => v >= 200),
      "a relayer migration sits in api/platform/db/migrations",
    );
  });

  it("open a database migrated from the one-folder layout without applying anything again", async () => {
    // The old layout: every file in one directory, applied by the same runner.
    const oneFolder = mkdtempSync(join(tmp, "one-folder-"));
    for (const dir of [RELAYER_MIGRATIONS_DIR, API_MIGRATIONS_DIR]) {
      for (const file of readdirSync(dir)) if (ONE_FOLDER_LAYOUT.some((id) => file === `${id}.sql`)) copyFileSync(join(dir, file), join(oneFolder, file));
    }
    const dataDir = join(tmp, "data");
    const before = await openDatabase({ dataDir });
    try {
      assert.deepEqual(
        await migrate(before, readMigrations([oneFolder])),
        ONE_FOLDER_LAYOUT.map((id) => id.slice(0, 3)),
      );
      await before.query(`INSERT INTO service_meta (key, value) VALUES ('chain', '8453')`);
    } finally {
      await before.close();
    }
    const reopened = await openDatabase({ dataDir });
    try {
      const applied = await migrateService(reopened);
      assert.deepEqual(
        applied,
        serviceMigrations()
          .map((m) => m.version)
          .filter((v) => !ONE_FOLDER_LAYOUT.some((id) => id.startsWith(v))),
      );
      const rows = await reopened.query<{ version: string; name: string }>(`SELECT version, name FROM schema_migrations ORDER BY version`);
      // The old rows, as they were (later migrations of either folder may sort between them).
      assert.deepEqual(
        rows.map((r) => `${r.version}_${r.name}`).filter((id) => ONE_FOLDER_LAYOUT.includes(id)),
        ONE_FOLDER_LAYOUT,
      );
      assert.deepEqual(await reopened.query(`SELECT value FROM service_meta WHERE key = 'chain'`), [{ value: "8453" }]);
    } finally {
      await reopened.close();
    }
  });
});
