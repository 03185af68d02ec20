/**
 * The indexer process's environment, read once and checked (Ponder loads ponder.config.ts in its own process, so it
 * cannot be handed the service's configuration object). `npm start` (scripts/stack/indexer.ts) and the tests'
 * onchain stack set these from the validated service configuration; a bad value stops Ponder with one line naming it.
 */
import { resolve } from "node:path";
import { z } from "zod";

const indexerEnvSchema = z.object({
  CHAIN_ID: z.coerce.number().int().positive().default(8453),
  RPC_URL: z.string().url().optional(),
  CHAIN_PORT: z.coerce.number().int().min(1).max(65535).default(8545),
  /** The deployment artifact to index; default deployments/<CHAIN_ID>.json. */
  DEPLOYMENT_FILE: z.string().min(1).optional(),
  /** Postgres; without it Ponder runs on PGlite in PONDER_PGLITE_DIR. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  PONDER_PGLITE_DIR: z.string().min(1).optional(),
  /** How often the chain is polled for new blocks (ms). */
  PONDER_POLLING_MS: z.coerce.number().int().min(10).max(60_000).default(100),
});

export interface IndexerEnv {
  chainId: number;
  rpcUrl: string;
  deploymentFile: string;
  database: { kind: "postgres"; connectionString: string } | { kind: "pglite"; directory: string };
  pollingMs: number;
}

/** Parses the environment; `root` is the repository root (relative paths resolve against it). */
export function readIndexerEnv(root: string, env: NodeJS.ProcessEnv = process.env): IndexerEnv {
  const input: Record<string, string> = {};
  for (const key of Object.keys(indexerEnvSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") input[key] = value;
  }
  const parsed = indexerEnvSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`indexer configuration: ${String(issue.path[0])} is invalid: ${issue.message}`);
  }
  const e = parsed.data;
  return {
    chainId: e.CHAIN_ID,
    rpcUrl: e.RPC_URL ?? `http://127.0.0.1:${e.CHAIN_PORT}`,
    deploymentFile: resolve(root, e.DEPLOYMENT_FILE ?? `deployments/${e.CHAIN_ID}.json`),
    database: e.DATABASE_URL
      ? { kind: "postgres", connectionString: e.DATABASE_URL }
      : { kind: "pglite", directory: e.PONDER_PGLITE_DIR ?? resolve(root, ".data", "ponder") },
    pollingMs: e.PONDER_POLLING_MS,
  };
}
