/**
 * The chain pm-agent sends transactions to (a release claim, an on-chain market's creation): the JSON-RPC named by
 * `--rpc`, else PM_AGENT_RPC, else the local chain; and a wallet on it that sends one transaction at a time and waits
 * for its receipt. A chain that cannot be reached is `Unreachable` (exit 2); a transaction it refuses or reverts is
 * `Refused` (exit 1).
 */
import { BaseError, createPublicClient, createWalletClient, defineChain, type Hex, HttpRequestError, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { Unreachable } from "./client";
import { Refused, UsageError } from "./context";

export const DEFAULT_RPC = "http://127.0.0.1:8545";

export const rpcOf = (given: string | undefined, env: NodeJS.ProcessEnv): string => given ?? env.PM_AGENT_RPC ?? DEFAULT_RPC;

export interface ChainWallet {
  address: Hex;
  /** Sends `tx` (value 0), tells `onSent` its hash, waits for its receipt; a reverted one is refused. */
  send(tx: { to: string; data: string }, onSent?: (hash: Hex) => void): Promise<Hex>;
}

/** `key` as a wallet's private key (`what` names the option it came from); bad usage otherwise. */
export function walletKey(key: string, what: string): Hex {
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new UsageError(`${what} must be 0x + 64 hex digits`);
  return key as Hex;
}

/** The wallet of private key `key` (`what` names the option it came from) on chain `chainId` through `rpc`. */
export function chainWallet(key: string, chainId: number, rpc: string, what: string): ChainWallet {
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpc] } },
  });
  const wallet = createWalletClient({ chain, transport: http(rpc), account: privateKeyToAccount(walletKey(key, what)) });
  const reader = createPublicClient({ chain, transport: http(rpc) });
  return {
    address: wallet.account.address,
    async send(tx, onSent) {
      try {
        const hash = await wallet.sendTransaction({ to: tx.to as Hex, data: tx.data as Hex, value: 0n });
        onSent?.(hash);
        const receipt = await reader.waitForTransactionReceipt({ hash });
        if (receipt.status !== "success") throw new Refused(`transaction ${hash} reverted on chain ${chainId}`);
        return hash;
      } catch (err) {
        if (err instanceof BaseError && err.walk((e) => e instanceof HttpRequestError)) throw new Unreachable(`the chain at ${rpc}: ${err.shortMessage}`);
        if (err instanceof BaseError) throw new Refused(`the chain refused the transaction: ${err.shortMessage}`);
        throw err;
      }
    },
  };
}
