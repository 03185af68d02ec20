/** Connects to the RPC and finds the ledger address (flag, else deployments/<chainId>.json). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createPublicClient, http, isAddress, type Address, type PublicClient } from "viem";
import { ReplayError } from "../replay/errors";

/** A reachable chain and the ledger to replay. */
export interface Target {
  readonly client: PublicClient;
  readonly chainId: number;
  readonly ledger: Address;
  /** Deployment block when known (replay starts there), else 0. */
  readonly fromBlock: bigint;
}

/** Reads `deployments/<chainId>.json` under `root`; null when absent. */
export function readDeployment(root: string, chainId: number): { address: Address; blockNumber: bigint } | null {
  let text: string;
  try {
    text = readFileSync(join(root, "deployments", `${chainId}.json`), "utf8");
  } catch {
    return null;
  }
  const entry = JSON.parse(text)?.contracts?.CommittedLedger;
  if (!entry?.address) return null;
  return { address: entry.address as Address, blockNumber: BigInt(entry.blockNumber ?? 0) };
}

/** Opens the RPC (failing clearly when unreachable) and resolves the ledger address. */
export async function connect(rpc: string, ledgerFlag: string | undefined, root: string): Promise<Target> {
  const client = createPublicClient({ transport: http(rpc, { retryCount: 0, timeout: 10_000 }) }) as PublicClient;
  let chainId: number;
  try {
    chainId = await client.getChainId();
  } catch (cause) {
    throw new ReplayError("RPC_UNREACHABLE", `cannot reach the RPC at ${rpc}`, cause);
  }
  if (ledgerFlag !== undefined) {
    if (!isAddress(ledgerFlag, { strict: false })) throw new ReplayError("BAD_INPUT", `--ledger is not an address: ${ledgerFlag}`);
    return { client, chainId, ledger: ledgerFlag as Address, fromBlock: 0n };
  }
  const deployment = readDeployment(root, chainId);
  if (!deployment) {
    throw new ReplayError("NO_LEDGER_ADDRESS", `no --ledger given and deployments/${chainId}.json names no CommittedLedger`);
  }
  return { client, chainId, ledger: deployment.address, fromBlock: deployment.blockNumber };
}
