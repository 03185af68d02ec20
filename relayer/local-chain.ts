/**
 * Whether the stack's chain is a local one (docs/dev-chain.md): the stack's own Hardhat node (RPC_URL unset, with or
 * without FORK_URL), or an RPC_URL on a loopback host. Only a local chain may have its clock moved, be given the dev
 * keys' defaults or a mintable test token; anything else is treated as a live chain.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h) || h === "0:0:0:0:0:0:0:1";
}

export type ChainKind = "own-node" | "own-fork" | "loopback-rpc" | "remote";

export function chainKind(config: { RPC_URL?: string; FORK_URL?: string }): ChainKind {
  if (!config.RPC_URL) return config.FORK_URL ? "own-fork" : "own-node";
  return isLoopbackHost(new URL(config.RPC_URL).hostname) ? "loopback-rpc" : "remote";
}

export function isLocalChain(config: { RPC_URL?: string; FORK_URL?: string }): boolean {
  return chainKind(config) !== "remote";
}
