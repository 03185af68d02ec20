/**
 * The deployment artifact `deployments/<chainId>.json`: the one place for its shape (zod), where it lives, how it is
 * read and how it is written. The deployment (relayer/deploy.ts) writes it; the service's discovery documents, the
 * batcher, Ponder's configuration and the `decode` CLI read it.
 *
 * It sits in the decoder because every part may import the decoder and the `decode` CLI reads the file too; like the
 * CLI, it is I/O at the edge and stays out of the pure ledger rules.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .transform((v) => v as `0x${string}`);
const hash32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/)
  .transform((v) => v as `0x${string}`);

/**
 * One deployed contract. blockHash and runtimeCodeHash are optional so an artifact written before the deployment
 * recorded them still loads; the documents serve null for them until the next deployment.
 */
const deployedContractSchema = z.object({
  address,
  blockNumber: z.coerce.number().int().nonnegative(),
  /** Hash of the block that holds the deployment: tells a reorged or replaced chain from the one deployed to. */
  blockHash: hash32.optional(),
  txHash: hash32.optional(),
  /** keccak256 of the deployed runtime code (for a proxy: the proxy's own code). */
  runtimeCodeHash: hash32.optional(),
});

const contractLocationSchema = deployedContractSchema.pick({ address: true, blockNumber: true });

/** What a client needs to recognise the Router implementation and call it. */
const routerInterfaceSchema = z.object({
  abiVersion: z.union([z.string(), z.number()]).transform(String),
  /** keccak256 of the implementation's runtime code. */
  runtimeCodeHash: z.string(),
  functions: z.object({
    executeTradeIntent: z.object({ signature: z.string(), selector: z.string() }),
    executeBasketIntent: z.object({ signature: z.string(), selector: z.string() }),
  }),
});

export const deploymentSchema = z.object({
  chainId: z.number().int().positive(),
  deployer: address.optional(),
  operator: address.optional(),
  treasury: address.optional(),
  contracts: z.record(z.string(), deployedContractSchema),
  collaterals: z.array(z.object({ symbol: z.string().min(1).max(16), token: address, decimals: z.number().int().min(0).max(30), router: address })),
  /** null until a Router is deployed. */
  routerInterface: routerInterfaceSchema.nullable(),
});

/** A parsed deployment artifact. */
export type Deployment = z.infer<typeof deploymentSchema>;
export type DeployedContract = z.infer<typeof deployedContractSchema>;

/** Where deployment artifacts live: deployments/ at the repository root. */
export const DEPLOYMENTS_DIR = join(__dirname, "..", "deployments");

/** The artifact file of `chainId` in `dir`. */
export function deploymentFile(chainId: number, dir = DEPLOYMENTS_DIR): string {
  return join(dir, `${chainId}.json`);
}

/** Reads and checks a whole artifact; throws naming the file and the first bad field. */
export function readDeployment(file: string): Deployment {
  const parsed = deploymentSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not a deployment artifact: ${parsed.error.issues[0].path.join(".")} ${parsed.error.issues[0].message}`);
  return parsed.data;
}

/**
 * Reads where one contract of `<dir>/<chainId>.json` is, without asking the rest of the file to be whole (the `decode`
 * CLI only needs the ledger). Null when the file is absent or names no such contract at a valid address; a missing
 * block number reads as 0. Throws a SyntaxError when the file is not JSON.
 */
export function readContractLocation(dir: string, chainId: number, name: string): { file: string; address: `0x${string}`; blockNumber: number } | null {
  const file = deploymentFile(chainId, dir);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const raw = (JSON.parse(text) as { contracts?: Record<string, unknown> } | null)?.contracts?.[name];
  const entry = contractLocationSchema.safeParse(raw !== null && typeof raw === "object" ? { blockNumber: 0, ...raw } : raw);
  return entry.success ? { file, ...entry.data } : null;
}

/** Writes `<dir>/<chainId>.json` (creating `dir`); returns the file. */
export function writeDeployment(record: Deployment, dir = DEPLOYMENTS_DIR): string {
  const file = deploymentFile(record.chainId, dir);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(record, null, 2) + "\n");
  return file;
}
