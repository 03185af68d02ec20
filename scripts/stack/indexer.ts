/**
 * Step 4 of `npm start`: the Ponder indexer (pinned 0.16.10) on the same chain and the same kind of database.
 *
 * A local Hardhat chain keeps no state across runs, so the index belongs to one chain instance: its PGlite directory
 * (or Postgres schema) is named after the chain's genesis block hash, and those of earlier instances are removed.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { createPublicClient, http } from "viem";
import { createPglite, isNewDatabase } from "../../relayer/db/pglite-pristine.cjs";
import type { Config } from "../../api/config";
import { startChild, stopChild, type Child } from "./children";
import { GiveUp, waitFor } from "./wait";

const ROOT = join(__dirname, "..", "..");
const PONDER_BIN = join(ROOT, "node_modules", "ponder", "dist", "esm", "bin", "ponder.js");

export interface IndexerHandle {
  child: Child;
  /** Base URL of Ponder's HTTP server (/health, /ready, /status and the indexer's own reads). */
  url: string;
}

/** The tag of one chain instance: the first 10 hex digits of its genesis block hash. */
async function chainInstanceTag(rpcUrl: string): Promise<string> {
  const genesis = await createPublicClient({ transport: http(rpcUrl) }).getBlock({ blockNumber: 0n });
  return genesis.hash.slice(2, 12);
}

/**
 * A new index directory (every new chain instance has one) starts as a copy of a pristine database made with Ponder's
 * own PGlite version, instead of Ponder running initdb in it: about 3 s less per start (relayer/db/pglite-pristine.cjs).
 */
async function seedPonderPglite(dir: string): Promise<void> {
  if (!isNewDatabase(dir)) return; // an index of this chain instance already: Ponder resumes it
  const fromPonder = createRequire(PONDER_BIN);
  const entry = fromPonder.resolve("@electric-sql/pglite");
  // Typed as the service's PGlite; the constructor options used here are the same in Ponder's version.
  const { PGlite } = fromPonder("@electric-sql/pglite") as typeof import("@electric-sql/pglite");
  const open = async (dataDir: string | undefined, options: { loadDataDir?: Blob }) => {
    const db = new PGlite({ dataDir, ...options });
    await db.waitReady;
    return db;
  };
  mkdirSync(dir, { recursive: true }); // as Ponder does before it opens one
  const db = await createPglite(PGlite, entry, open, dir, {});
  await db.close();
}

/** `track` is called with the child as soon as it is spawned, so a stop during start-up also stops it. */
export async function startIndexer(config: Config, deployment: { file: string; chainId: number }, track: (child: Child) => void): Promise<IndexerHandle> {
  const tag = await chainInstanceTag(config.rpcUrl);
  const ponderDir = join(config.dataDir, "ponder");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(config.PONDER_PORT), // Ponder reads PORT before --port: never let it take the service's
    CHAIN_ID: String(config.CHAIN_ID),
    RPC_URL: config.rpcUrl,
    DEPLOYMENT_FILE: deployment.file,
    PONDER_TELEMETRY_DISABLED: "true",
    PONDER_LOG_LEVEL: config.PONDER_LOG_LEVEL,
    PONDER_POLLING_MS: String(config.PONDER_POLLING_MS), // validated here; ponder.config.ts reads it
  };
  if (config.DATABASE_URL) {
    env.DATABASE_URL = config.DATABASE_URL;
  } else {
    delete env.DATABASE_URL;
    env.PONDER_PGLITE_DIR = join(ponderDir, tag);
    if (existsSync(ponderDir)) for (const old of readdirSync(ponderDir)) if (old !== tag) rmSync(join(ponderDir, old), { recursive: true, force: true });
    await seedPonderPglite(env.PONDER_PGLITE_DIR);
  }
  const schema = `ponder_${config.CHAIN_ID}_${tag}`;
  const args = [PONDER_BIN, "start", "--root", join(ROOT, "indexer"), "--schema", schema, "--port", String(config.PONDER_PORT), "--hostname", "127.0.0.1"];
  if (config.DATABASE_URL) args.push("--views-schema", `indexer_${config.CHAIN_ID}`);
  const child = startChild("indexer", process.execPath, args, { cwd: ROOT, env, quiet: false });
  track(child);
  let exitCode: number | string | undefined;
  void child.exited.then((c) => (exitCode = c));
  const url = `http://127.0.0.1:${config.PONDER_PORT}`;
  try {
    await waitFor(
      "the indexer",
      async () => {
        if (exitCode !== undefined) throw new GiveUp(`the indexer exited (${exitCode})`);
        const res = await fetch(`${url}/ready`);
        return res.ok ? true : undefined;
      },
      180_000,
      250,
    );
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return { child, url };
}
