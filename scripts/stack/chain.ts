/**
 * The local chain: a Hardhat node on 127.0.0.1:CHAIN_PORT with chain id CHAIN_ID (8453 by default, standing in for
 * Base so that agents sign the same EIP-712 domains as in production). With FORK_URL it forks that chain.
 */
import { join } from "node:path";
import { startChild, stopChild, type Child } from "./children";
import { rpcChainId, waitFor } from "./wait";

const ROOT = join(__dirname, "..", "..");

/** `track` is called with the child as soon as it is spawned, so a stop during start-up also stops it. */
export async function startLocalChain(
  opts: { port: number; chainId: number; forkUrl?: string; quiet?: boolean },
  track: (child: Child) => void = () => {},
): Promise<Child> {
  const rpcUrl = `http://127.0.0.1:${opts.port}`;
  if ((await rpcChainId(rpcUrl).catch(() => undefined)) !== undefined) {
    throw new Error(`port ${opts.port} already answers JSON-RPC: stop that chain, set CHAIN_PORT, or point RPC_URL at it`);
  }
  const cli = require.resolve("hardhat/internal/cli/cli.js", { paths: [ROOT] });
  const args = [cli, "node", "--hostname", "127.0.0.1", "--port", String(opts.port)];
  if (opts.forkUrl) args.push("--fork", opts.forkUrl);
  const child = startChild("chain", process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, CHAIN_ID: String(opts.chainId), HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" },
    quiet: opts.quiet ?? true,
  });
  track(child);
  const exitedEarly = child.exited.then((code) => {
    throw new Error(`the chain exited (${code}) before it answered`);
  });
  exitedEarly.catch(() => {}); // after start-up, an exit is the owner's business, not an unhandled rejection
  try {
    const id = await Promise.race([waitFor("the local chain", () => rpcChainId(rpcUrl), 60_000, 200), exitedEarly]);
    if (id !== opts.chainId) throw new Error(`the local chain answers chain id ${id}, expected ${opts.chainId}`);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return child;
}
