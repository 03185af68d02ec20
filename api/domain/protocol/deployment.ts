/**
 * The deployment artifact `deployments/<chainId>.json` as the service reads it (written by scripts/deploy.ts).
 * Parsed with zod at the edge so a stale or hand-edited file fails with a clear message instead of deep inside a route.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const hash32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
// blockHash and runtimeCodeHash are optional so an artifact written before scripts/deploy.ts recorded them still
// loads; the documents serve null for them until the next deployment.
const deployed = z.object({
  address,
  blockNumber: z.coerce.number().int().nonnegative(),
  blockHash: hash32.optional(),
  txHash: hash32.optional(),
  runtimeCodeHash: hash32.optional(),
});

export const deploymentSchema = z.object({
  chainId: z.number().int().positive(),
  deployer: address.optional(),
  operator: address.optional(),
  treasury: address.optional(),
  contracts: z.record(z.string(), deployed),
  collaterals: z.array(z.object({ symbol: z.string().min(1).max(16), token: address, decimals: z.number().int().min(0).max(30), router: address })),
  /** null until a Router is deployed. */
  routerInterface: z.object({
    abiVersion: z.union([z.string(), z.number()]).transform(String),
    runtimeCodeHash: z.string(),
    functions: z.object({
      executeTradeIntent: z.object({ signature: z.string(), selector: z.string() }),
      executeBasketIntent: z.object({ signature: z.string(), selector: z.string() }),
    }),
  }).nullable(),
});

export type Deployment = z.infer<typeof deploymentSchema>;

/** Where deployment artifacts live: deployments/<chainId>.json at the repository root. */
export const DEPLOYMENTS_DIR = join(__dirname, "..", "..", "..", "deployments");

export function deploymentFile(chainId: number, dir = DEPLOYMENTS_DIR): string {
  return join(dir, `${chainId}.json`);
}

export function readDeployment(file: string): Deployment {
  const parsed = deploymentSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not a deployment artifact: ${parsed.error.issues[0].path.join(".")} ${parsed.error.issues[0].message}`);
  return parsed.data;
}
