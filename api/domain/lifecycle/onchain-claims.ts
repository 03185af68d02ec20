/**
 * Claims on the on-chain lane go through the LmsrMarket: the amount is the contract's `previewClaim(holder)` read now,
 * and the claim is the holder's own `redeemAll(holder)` transaction, which the claim routes prepare (the service
 * never redeems for a holder). Money only ever reaches the holder.
 */
import { createPublicClient, encodeFunctionData, http, type Address } from "viem";
import { lmsrMarketAbi } from "../../../generated/abis";
import type { CatalogMarket } from "../markets/catalog-types";
import type { ClaimSettlement, PayoutItem } from "./claim-views";

export interface OnchainPreview {
  payout: bigint;
  fee: bigint;
  /** 0 open, 1 resolved, 2 voided (the contract's `state`). */
  state: number;
  readAt: number;
}

export class OnchainClaims {
  #client: ReturnType<typeof createPublicClient> | null = null;
  constructor(
    private readonly rpcUrl: string,
    private readonly now: () => number,
  ) {}

  private client() {
    this.#client ??= createPublicClient({ transport: http(this.rpcUrl, { timeout: 5_000, retryCount: 1 }) });
    return this.#client;
  }

  /** previewClaim and state of one market for `holder`; null when the chain cannot answer. */
  async preview(market: Address, holder: Address): Promise<OnchainPreview | null> {
    try {
      const c = this.client();
      const [[payout, fee], state] = await Promise.all([
        c.readContract({ address: market, abi: lmsrMarketAbi, functionName: "previewClaim", args: [holder] }) as Promise<readonly [bigint, bigint]>,
        c.readContract({ address: market, abi: lmsrMarketAbi, functionName: "state" }) as Promise<number>,
      ]);
      return { payout, fee, state: Number(state), readAt: this.now() };
    } catch {
      return null;
    }
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

export function redeemAllTx(m: CatalogMarket, holder: Address) {
  return {
    chainId: m.chainId,
    to: m.address,
    data: encodeFunctionData({ abi: lmsrMarketAbi, functionName: "redeemAll", args: [holder] }),
    value: "0" as const,
    function: "redeemAll(address)" as const,
  };
}

/** An on-chain payout the holder can still claim (previewClaim > 0 on a settled contract). */
export function onchainPayoutItem(m: CatalogMarket, p: OnchainPreview): PayoutItem {
  return {
    id: `chain:${m.chainId}:${m.address}`,
    chainId: m.chainId,
    marketAddress: m.address,
    amount: p.payout.toString(),
    status: "claimable",
    createdAt: iso(m.resolvedAt ?? p.readAt),
    eligibleNow: p.state !== 0,
    eligibleAt: m.resolvedAt === null ? null : iso(m.resolvedAt),
    amountSource: "chain",
    winningShares: "0",
    isResolved: p.state !== 0,
    claimed: false,
    chainReadAt: iso(p.readAt),
  };
}

/**
 * POST /claims/batch on an on-chain market: SKIPPED with the prepared redeemAll for the wallet (the service submits
 * nothing); NOT_CLAIMABLE_YET while the contract is not settled or nothing is left to claim; ROUTER_UNAVAILABLE when
 * the chain cannot be read.
 */
export function onchainSettlement(m: CatalogMarket, holder: Address | null, p: OnchainPreview | null): ClaimSettlement {
  const base = { state: "SKIPPED" as const, chainId: m.chainId, marketAddress: m.address, amountSource: "chain" as const, winningShares: "0", claimed: false };
  if (holder !== null && p === null) {
    return {
      ...base,
      amountAvailable: false,
      amount: "0",
      skippedReason: "ROUTER_UNAVAILABLE",
      eligibleNow: false,
      eligibleAt: null,
      isResolved: false,
      chainReadAt: null,
    };
  }
  if (holder === null || p === null || p.state === 0 || p.payout === 0n) {
    return {
      ...base,
      amountAvailable: p !== null,
      amount: "0",
      skippedReason: "NOT_CLAIMABLE_YET",
      eligibleNow: false,
      eligibleAt: null,
      isResolved: p !== null && p.state !== 0,
      chainReadAt: p ? iso(p.readAt) : null,
    };
  }
  return {
    ...base,
    amountAvailable: true,
    amount: p.payout.toString(),
    eligibleNow: true,
    eligibleAt: m.resolvedAt === null ? null : iso(m.resolvedAt),
    isResolved: true,
    chainReadAt: iso(p.readAt),
    prepared: redeemAllTx(m, holder),
  };
}
