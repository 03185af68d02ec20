/**
 * The local chain's clock (docs/dev-chain.md): Hardhat's (and Anvil's) `evm_increaseTime` and `evm_mine` move it with
 * the service's clock, so block timestamps and the service's deadlines agree. Plain JSON-RPC: no client to hold open.
 */
export class ChainClockError extends Error {}

async function rpc<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  let res: Response;
  try {
    res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    throw new ChainClockError(`the chain at ${rpcUrl} did not answer ${method}: ${(err as Error).message}`);
  }
  const body = (await res.json().catch(() => ({}))) as { result?: T; error?: { message?: string } };
  if (body.error || !("result" in body)) throw new ChainClockError(`the chain at ${rpcUrl} refused ${method}: ${body.error?.message ?? `HTTP ${res.status}`}`);
  return body.result as T;
}

export interface ChainHead {
  blockNumber: bigint;
  /** Seconds (block timestamps are whole seconds). */
  timestamp: bigint;
}

export async function chainHead(rpcUrl: string): Promise<ChainHead> {
  const block = await rpc<{ number: string; timestamp: string }>(rpcUrl, "eth_getBlockByNumber", ["latest", false]);
  return { blockNumber: BigInt(block.number), timestamp: BigInt(block.timestamp) };
}

/** Moves the chain's clock forward by `ms` (rounded up to whole seconds) and mines a block that carries it. */
export async function advanceChainClock(rpcUrl: string, ms: number): Promise<ChainHead> {
  const seconds = Math.ceil(ms / 1000);
  if (seconds > 0) await rpc(rpcUrl, "evm_increaseTime", [seconds]);
  await rpc(rpcUrl, "evm_mine");
  return chainHead(rpcUrl);
}

/**
 * Brings a chain that is behind `nowMs` (a fresh local node after the service restarted with an offset) up to it.
 * Returns the seconds it moved (0 when the chain was not behind).
 */
export async function catchUpChainClock(rpcUrl: string, nowMs: number): Promise<number> {
  const head = await chainHead(rpcUrl);
  const behind = Math.floor(nowMs / 1000) - Number(head.timestamp);
  if (behind <= 1) return 0;
  await rpc(rpcUrl, "evm_increaseTime", [behind]);
  await rpc(rpcUrl, "evm_mine");
  return behind;
}
