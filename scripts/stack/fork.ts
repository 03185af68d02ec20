/**
 * Step 0 of `npm start` with FORK_URL (docs/dev-chain.md): ask the forked chain for its id and head before anything
 * starts, so the stack runs with that chain's id (its EIP-712 domains, its canonical USDC) and forks a known block.
 * An RPC that does not answer stops the start with one line naming FORK_URL, before any process was started.
 */
import { ConfigError } from "../../api/config";

export interface ForkPoint {
  chainId: number;
  /** The block forked at: FORK_BLOCK, else the forked chain's head. */
  block: number;
}

const TIMEOUT_MS = 10_000;

async function rpc(url: string, method: string): Promise<string> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = (await res.json()) as { result?: string; error?: { message?: string } };
  if (typeof body.result !== "string") throw new Error(body.error?.message ?? `no result for ${method}`);
  return body.result;
}

/** The chain id and fork block of FORK_URL; a ConfigError naming FORK_URL when it does not answer JSON-RPC. */
export async function probeFork(forkUrl: string, forkBlock?: number): Promise<ForkPoint> {
  let chainId: number;
  let head: number;
  try {
    chainId = Number(BigInt(await rpc(forkUrl, "eth_chainId")));
    head = Number(BigInt(await rpc(forkUrl, "eth_blockNumber")));
  } catch (err) {
    const cause = (err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new ConfigError(
      "FORK_URL",
      `${forkUrl} does not answer JSON-RPC (${cause}): start the node it names, point FORK_URL at a reachable RPC of the chain to fork, or unset it to run the stack's own chain`,
    );
  }
  if (forkBlock !== undefined && forkBlock > head) {
    throw new ConfigError("FORK_BLOCK", `${forkBlock} is past the head of FORK_URL's chain (${head}): pick a block at or below it, or unset FORK_BLOCK`);
  }
  return { chainId, block: forkBlock ?? head };
}
