/** Thrown by a probe to stop waiting at once (e.g. the process it waits for has died). */
export class GiveUp extends Error {
  override name = "GiveUp";
}

/** Polls `probe` until it returns a value, or fails after `timeoutMs` with a message naming `what`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      if (err instanceof GiveUp) throw err;
      last = err;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
}

/** The chain id an RPC answers, or undefined while it is not up. */
export async function rpcChainId(rpcUrl: string): Promise<number | undefined> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
  });
  if (!res.ok) return undefined;
  const body = (await res.json()) as { result?: string };
  return body.result ? Number(BigInt(body.result)) : undefined;
}
