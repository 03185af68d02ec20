/**
 * New PGlite databases from the pristine copy: the same database initdb makes, on disk and in memory; the copy is made
 * once and cached; a damaged cache file costs time, never an open; an existing database is opened as it is.
 */
import { strict as assert } from "node:assert";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { createPglite } from "./pglite-pristine.cjs";

const ENTRY = require.resolve("@electric-sql/pglite");
const create = (dir: string | undefined, options: PGliteOptions) => PGlite.create(dir, options);

/** What initdb decides and a test can see: databases, roles, the catalog's size, encoding and locale. */
async function shape(db: PGlite) {
  const one = async (sql: string) => (await db.query<Record<string, unknown>>(sql)).rows;
  return {
    databases: await one("SELECT datname, encoding, datcollate, datctype FROM pg_database ORDER BY datname"),
    roles: await one("SELECT rolname, rolsuper FROM pg_roles ORDER BY rolname"),
    relations: await one("SELECT count(*)::int AS n FROM pg_class"),
    settings: await one("SELECT name, setting FROM pg_settings WHERE name IN ('server_encoding', 'lc_collate', 'TimeZone') ORDER BY name"),
  };
}

describe("PGlite from the pristine copy", () => {
  const root = mkdtempSync(join(tmpdir(), "pglite-pristine-"));
  const cache = join(root, "cache");
  after(() => rmSync(root, { recursive: true, force: true }));

  it("gives the database initdb gives, on disk and in memory; the copy is made once and cached", async () => {
    const plain = await PGlite.create(join(root, "initdb"));
    const expected = await shape(plain);
    await plain.close();

    const onDisk = await createPglite(PGlite, ENTRY, create, join(root, "a"), {}, cache);
    assert.deepEqual(await shape(onDisk), expected);
    await onDisk.query("CREATE TABLE kept (x int)");
    await onDisk.close();
    const cached = readdirSync(cache);
    assert.equal(cached.length, 1);
    assert.match(cached[0], /^pglite-\d+\.\d+\.\d+\.tar$/, "one pristine copy, named by the PGlite version");

    const inMemory = await createPglite(PGlite, ENTRY, create, undefined, {}, cache);
    assert.deepEqual(await shape(inMemory), expected);
    await inMemory.close();

    // An existing database is opened as it is, not replaced.
    const again = await createPglite(PGlite, ENTRY, create, join(root, "a"), {}, cache);
    assert.deepEqual((await again.query("SELECT count(*)::int AS n FROM kept")).rows, [{ n: 0 }]);
    await again.close();
  });

  it("a damaged cache file falls back to initdb, and is dropped so the next new database makes it again", async () => {
    const [file] = readdirSync(cache);
    writeFileSync(join(cache, file), "not a tarball");
    const db = await createPglite(PGlite, ENTRY, create, join(root, "b"), {}, cache);
    assert.deepEqual((await db.query("SELECT 1 AS one")).rows, [{ one: 1 }]);
    await db.close();
    assert.equal(existsSync(join(cache, file)), false, "the damaged file is gone");
    const next = await createPglite(PGlite, ENTRY, create, join(root, "c"), {}, cache);
    await next.close();
    assert.ok(existsSync(join(cache, file)), "made again");
  });
});
