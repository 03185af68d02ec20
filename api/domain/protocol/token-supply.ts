/**
 * PM's on-chain totalSupply for `/discover/token-release`, read through viem from the configured RPC and cached for
 * TOKEN_SUPPLY_CACHE_MS, so the public read costs a chain round trip at most that often. An unreachable chain (or a
 * chain without the deployed token) is remembered for the same time, so a dead RPC does not slow every call; the
 * last good value keeps being served with the instant it was read. One reader per service (`Services.tokenSupply`), so
 * its cache is shared by every call.
 */
import { createPublicClient, http, type Address, type PublicClient } from "viem";
import { playMoneyAbi } from "../../../generated/abis";

export const TOKEN_SUPPLY_CACHE_MS = 5_000;

export interface TokenSupply {
  /** Base units (6 decimals); null when it was never read. */
  totalSupply: bigint | null;
  /** Clock instant of the read that gave `totalSupply`; null when never read. */
  readAt: number | null;
}

export class TokenSupplyReader {
  private readonly client: PublicClient;
  private last: { address: string; totalSupply: bigint; readAt: number } | null = null;
  /** Monotonic instant of the last attempt (good or failed) per address, and the attempt under way. */
  private attempt: { address: string; at: number; pending: Promise<void> } | null = null;

  constructor(
    rpcUrl: string,
    private readonly now: () => number,
  ) {
    this.client = createPublicClient({ transport: http(rpcUrl, { timeout: 2_000, retryCount: 0 }) });
  }

  async read(address: Address): Promise<TokenSupply> {
    const key = address.toLowerCase();
    // The cache runs on the monotonic clock (as api/domain/onchain/freshness.ts): a service on a manual clock must re-read.
    const t = performance.now();
    if (!this.attempt || this.attempt.address !== key || t - this.attempt.at >= TOKEN_SUPPLY_CACHE_MS) {
      this.attempt = { address: key, at: t, pending: this.fetch(address, key) };
    }
    await this.attempt.pending;
    const last = this.last?.address === key ? this.last : null;
    return { totalSupply: last?.totalSupply ?? null, readAt: last?.readAt ?? null };
  }

  private async fetch(address: Address, key: string): Promise<void> {
    try {
      const totalSupply = await this.client.readContract({ address, abi: playMoneyAbi, functionName: "totalSupply" });
      this.last = { address: key, totalSupply, readAt: this.now() };
    } catch {
      // Unreachable chain or no token there: keep the last good value (if any) until a later attempt succeeds.
    }
  }
}
