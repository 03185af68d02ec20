/**
 * The claim shapes of the spec ("Claims and sweeps"): PayoutItem, ClaimSettlement and both ClaimReceipt shapes, built
 * from a committed payout record (./movements.ts) or an on-chain preview (./onchain-claims.ts). Committed payouts are
 * credited at final resolution, so they show as claimed; a receipt is corroborated once the ledger batch holding the
 * payout is confirmed on chain (docs/resolution.md "Claims").
 */
import { z } from "zod";
import type { CatalogMarket } from "../markets/catalog-types";
import { movementKeyOf, type PayoutRecord } from "./movements";

const iso = (ms: number) => new Date(ms).toISOString();
const wei = z.string().regex(/^\d+$/);
const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

export const SKIPPED_REASONS = ["NOT_CLAIMABLE_YET", "COMMITTED_SETTLED", "MARKET_NOT_FOUND", "ROUTER_UNAVAILABLE", "SUBMIT_FAILED"] as const;
export const UNAVAILABLE_REASONS = [
  "ONCHAIN_PROJECTION_ONLY",
  "NOT_TERMINAL",
  "METADATA_UNAVAILABLE",
  "RECEIPT_MISSING",
  "RECEIPT_MISMATCH",
  "POSITION_NOT_CLOSED",
] as const;

const eligibility = {
  eligibleNow: z.boolean().describe("claims are open (committed: credited at final resolution)"),
  eligibleAt: z.string().nullable(),
  amountSource: z.enum(["chain", "ledger"]).describe("chain = the contract's previewClaim; ledger = the committed payout movement"),
  winningShares: wei,
  isResolved: z.boolean(),
  claimed: z.boolean(),
  chainReadAt: z.string().nullable().describe("when the amount was read (chain) or corroborated by a confirmed batch (ledger)"),
};

/** An on-chain claim the holder's wallet submits (the service never redeems for it). */
export const preparedClaimSchema = z.object({
  chainId: z.number().int(),
  to: z.string(),
  data: z.string(),
  value: z.literal("0"),
  function: z.literal("redeemAll(address)"),
});

export const claimSettlementSchema = z.object({
  state: z.enum(["SETTLED", "SKIPPED"]),
  amountAvailable: z.boolean().optional().describe("false: `amount` is a placeholder, not a verified payout"),
  chainId: z.number().int(),
  marketAddress: z.string(),
  amount: wei,
  txHash: hash.optional(),
  skippedReason: z.enum(SKIPPED_REASONS).optional(),
  prepared: preparedClaimSchema.optional().describe("on-chain lane: the redeemAll transaction for the holder's wallet to submit"),
  ...eligibility,
});
export type ClaimSettlement = z.input<typeof claimSettlementSchema>;

export const payoutItemSchema = z.object({
  id: z.string(),
  chainId: z.number().int(),
  marketAddress: z.string(),
  amount: wei,
  status: z.enum(["claimable", "claimed"]),
  createdAt: z.string(),
  ...eligibility,
  settlement: claimSettlementSchema.optional(),
});
export type PayoutItem = z.input<typeof payoutItemSchema>;

const receiptIdentity = {
  id: z.string(),
  chainId: z.number().int(),
  marketId: z.number().int().positive(),
  marketAddress: z.string(),
  createdAt: z.string(),
  claimedAt: z.string().nullable(),
  settlement: z.literal("committed"),
  collateralToken: z.string().nullable(),
  collateralDecimals: z.number().int().min(0).max(255),
  amount: wei.describe("exact net payout after the payout fee, base units"),
  movementKey: z.string(),
};
export const claimReceiptSchema = z.discriminatedUnion("authority", [
  z.object({
    ...receiptIdentity,
    authority: z.literal("committed_ledger"),
    recordedAt: z.string(),
    holderDisposition: z.literal("closed"),
    txHash: hash.nullable(),
  }),
  z.object({
    ...receiptIdentity,
    authority: z.literal("unavailable"),
    recordedAt: z.null(),
    holderDisposition: z.literal("unavailable"),
    unavailableReason: z.enum(UNAVAILABLE_REASONS),
  }),
]);
export type ClaimReceipt = z.input<typeof claimReceiptSchema>;

/** A payout is corroborated once the batch that carries it is confirmed on chain. */
export function corroborated(p: PayoutRecord): boolean {
  return p.batch?.status === "confirmed" && p.batch.txHash !== null;
}

/** A committed payout as a PayoutItem (claimed: credited at final resolution). */
export function committedPayoutItem(p: PayoutRecord, m: CatalogMarket): PayoutItem {
  return {
    id: movementKeyOf(p),
    chainId: m.chainId,
    marketAddress: m.address,
    amount: p.amount.toString(),
    status: "claimed",
    createdAt: iso(p.at),
    eligibleNow: true,
    eligibleAt: iso(p.at),
    amountSource: "ledger",
    winningShares: p.winningShares.toString(),
    isResolved: true,
    claimed: true,
    chainReadAt: corroborated(p) ? iso(p.batch!.updatedAt) : null,
  };
}

/** POST /claims/batch on a committed market: never a transaction; COMMITTED_SETTLED only after a corroborated receipt. */
export function committedSettlement(m: CatalogMarket, p: PayoutRecord | undefined): ClaimSettlement {
  const base = { state: "SKIPPED" as const, chainId: m.chainId, marketAddress: m.address, amountSource: "ledger" as const };
  if (p && corroborated(p)) {
    return {
      ...base,
      amountAvailable: true,
      amount: p.amount.toString(),
      txHash: p.batch!.txHash!,
      skippedReason: "COMMITTED_SETTLED",
      eligibleNow: true,
      eligibleAt: iso(p.at),
      winningShares: p.winningShares.toString(),
      isResolved: true,
      claimed: true,
      chainReadAt: iso(p.batch!.updatedAt),
    };
  }
  const final = m.state === "resolved" || m.state === "void";
  return {
    ...base,
    amountAvailable: false,
    amount: "0",
    skippedReason: "NOT_CLAIMABLE_YET",
    eligibleNow: false,
    eligibleAt: p ? iso(p.at) : null,
    winningShares: p ? p.winningShares.toString() : "0",
    isResolved: final,
    claimed: false,
    chainReadAt: null,
  };
}

/** A settlement for a market the catalog does not know on that chain. */
export function marketNotFoundSettlement(chainId: number, marketAddress: string): ClaimSettlement {
  return {
    state: "SKIPPED",
    amountAvailable: false,
    chainId,
    marketAddress,
    amount: "0",
    skippedReason: "MARKET_NOT_FOUND",
    eligibleNow: false,
    eligibleAt: null,
    amountSource: "ledger",
    winningShares: "0",
    isResolved: false,
    claimed: false,
    chainReadAt: null,
  };
}

/** The ClaimReceipt of a committed payout: corroborated (committed_ledger) or unavailable (RECEIPT_MISSING). */
export function committedReceipt(p: PayoutRecord, m: CatalogMarket): ClaimReceipt {
  const identity = {
    id: `rcpt_${p.entrySeq}_${p.idx}`,
    chainId: m.chainId,
    marketId: Number(p.marketId),
    marketAddress: m.address,
    createdAt: iso(p.at),
    claimedAt: iso(p.at),
    settlement: "committed" as const,
    collateralToken: m.collateral.token,
    collateralDecimals: m.collateral.decimals,
    amount: p.amount.toString(),
    movementKey: movementKeyOf(p),
  };
  if (corroborated(p))
    return { ...identity, authority: "committed_ledger", recordedAt: iso(p.batch!.updatedAt), holderDisposition: "closed", txHash: p.batch!.txHash };
  return { ...identity, authority: "unavailable", recordedAt: null, holderDisposition: "unavailable", unavailableReason: "RECEIPT_MISSING" };
}
