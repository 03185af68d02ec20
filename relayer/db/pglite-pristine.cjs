"use strict";
/**
 * A new PGlite database without running initdb each time.
 *
 * PGlite creates a new database by running initdb in WebAssembly: 2.5–4 s of CPU on this kind of machine, paid by
 * every fresh `npm start` (the service's data directory the first time, the indexer's on every start, since its
 * directory belongs to one chain instance) and by every test that opens an in-memory database. Loading a copy of a
 * pristine database (PGlite's own `loadDataDir` tarball) takes 0.5–1 s. So the pristine database of each PGlite version
 * is made once, the slow way, and kept under node_modules/.cache/agent-pm/; every new database starts from it. What is
 * loaded is byte for byte what initdb wrote, so nothing downstream can tell the difference.
 *
 * Plain CommonJS: the PGlite worker thread (pglite-worker.cjs) loads it without the TypeScript loader.
 * Any failure here (a read-only tree, a damaged cache file) falls back to initdb: it may cost time, never an open.
 */
const { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require("node:fs");
const { dirname, join } = require("node:path");

const CACHE_DIR = join(__dirname, "..", "..", "node_modules", ".cache", "agent-pm");

/** The version of the PGlite package whose entry file is `entry` (the key of its pristine copy). */
function pgliteVersion(entry) {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, "utf8"));
    if (pkg.name === "@electric-sql/pglite") return pkg.version;
  }
  throw new Error(`no @electric-sql/pglite package.json above ${entry}`);
}

/** Whether `dir` holds no database yet; `undefined` is an in-memory database, always new. */
function isNewDatabase(dir) {
  return dir === undefined || !existsSync(join(dir, "PG_VERSION"));
}

function cacheFile(cacheDir, version) {
  return join(cacheDir, `pglite-${version}.tar`);
}

/** The pristine database as a tarball: read from the cache, or made now (initdb in memory) and cached. */
async function pristineTarball(PGlite, version, cacheDir) {
  const file = cacheFile(cacheDir, version);
  if (existsSync(file)) return readFileSync(file);
  const db = new PGlite();
  await db.waitReady;
  const tar = Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer());
  await db.close();
  try {
    mkdirSync(cacheDir, { recursive: true });
    const part = `${file}.${process.pid}.${Date.now()}.part`;
    writeFileSync(part, tar);
    renameSync(part, file); // atomic: a reader sees the whole file or none
  } catch {
    /* not writable: the next new database makes it again */
  }
  return tar;
}

/**
 * Creates a PGlite database at `dir` (undefined: in memory) with `options`, from the pristine copy when it is new.
 * `create(dir, options)` is the PGlite constructor call of the caller's version (e.g. `PGlite.create`). `entry` is the
 * resolved path of that PGlite package (the cache's key). `cacheDir` is for tests.
 */
async function createPglite(PGlite, entry, create, dir, options, cacheDir = CACHE_DIR) {
  if (!isNewDatabase(dir)) return create(dir, options);
  let version;
  let tar;
  try {
    version = pgliteVersion(entry);
    tar = await pristineTarball(PGlite, version, cacheDir);
  } catch {
    return create(dir, options);
  }
  try {
    return await create(dir, { ...options, loadDataDir: new Blob([tar]) });
  } catch {
    // A damaged cache file: drop it and what it half wrote, then the slow way.
    rmSync(cacheFile(cacheDir, version), { force: true });
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    return create(dir, options);
  }
}

/**
 * The service's PGlite (its own version, with pg_trgm) at `dir`, undefined for in memory: the one way the worker thread
 * and the caller's-thread engine (client.ts) open it. Loaded on first use, so a Postgres deployment never loads PGlite.
 */
async function createServicePglite(dir) {
  const { PGlite } = require("@electric-sql/pglite");
  const { pg_trgm } = require("@electric-sql/pglite/contrib/pg_trgm");
  const create = (at, options) => PGlite.create(at, options);
  return createPglite(PGlite, require.resolve("@electric-sql/pglite"), create, dir, { extensions: { pg_trgm } });
}

module.exports = { createPglite, createServicePglite, isNewDatabase };
