/** Shared pieces of the claim operations (spec "Claims, creator funds, sweeps"; docs/resolution.md "Claims"). */
import { z } from "zod";
import type { Address } from "viem";
import type { KeyPrincipal } from "../../domain/auth/principal";
import type { Claimant } from "../../domain/lifecycle/claims";
import { projectionFreshness } from "../../domain/onchain/reads";
import type { Services } from "../../services";
import { chainIdInput } from "../../platform/schemas/chain-id";
import { PORTFOLIO_READ_ACCESS, TRADE_EXECUTE_ACCESS } from "../../registry/types";
import { evmAddress } from "../discover/common";

/** Reads of the caller's own payouts: any key tier holding portfolio:read. */
export const CLAIM_READ = { category: "claims", ...PORTFOLIO_READ_ACCESS } as const;

/** Claim writes: execute tier, trade:execute, one write, Idempotency-Key required. */
export const CLAIM_WRITE = { category: "claims", ...TRADE_EXECUTE_ACCESS } as const;

export const MAX_CLAIM_PAGE = 200;
export const DEFAULT_CLAIM_PAGE = 100;
export const MAX_CLAIM_MARKETS = 100;

/** 1..MAX_CLAIM_MARKETS market addresses, lower-cased (the creator-fund and sweep batches). */
export const marketAddressList = z.array(evmAddress).min(1).max(MAX_CLAIM_MARKETS);

export const cursorField = z.string().regex(/^[A-Za-z0-9_-]{1,512}$/, "1..512 letters, digits, _ or -");
export const limitField = z.coerce.number().int().min(1).max(MAX_CLAIM_PAGE).default(DEFAULT_CLAIM_PAGE);

/** Body of /claims/batch and /claims/simulate. */
export const claimMarketsBody = z.strictObject({
  markets: z
    .array(z.strictObject({ chainId: chainIdInput, marketAddress: evmAddress }))
    .min(1)
    .max(MAX_CLAIM_MARKETS),
});

/** The caller as a claimant: its ledger account and its wallet (on-chain lane), if bound. */
export async function claimantOf(services: Services, principal: KeyPrincipal): Promise<Claimant> {
  const account = await services.venue.accountOf(principal);
  return { account, wallet: (principal.walletAddress?.toLowerCase() as Address | undefined) ?? null };
}

/** The `wallet` the answers name: the bound wallet, else the ledger account. */
export const walletOf = (c: Claimant) => c.wallet ?? c.account;

export const projectionOf = (services: Services) => projectionFreshness(services.onchain);
