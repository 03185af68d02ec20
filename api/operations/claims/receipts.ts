import { z } from "zod";
import { chainIdQuery } from "../../platform/schemas/chain-id";
import { defineOperation } from "../../registry/types";
import { receiptPage } from "../../domain/lifecycle/claims";
import { claimReceiptSchema } from "../../domain/lifecycle/claim-views";
import { CLAIM_READ, claimantOf, cursorField, limitField } from "./common";
import { evmAddress } from "../discover/common";

/**
 * GET /claims/receipts: the caller's committed payout receipts. A receipt is `committed_ledger` once the ledger batch
 * that carries the payout is confirmed on chain (its txHash); before that it is `unavailable` / RECEIPT_MISSING.
 * Reading a receipt again never creates another credit.
 */
export const listClaimReceipts = defineOperation({
  id: "listClaimReceipts",
  method: "GET",
  path: "/claims/receipts",
  summary: "The caller's payout receipts (committed lane), with the batch that corroborates each",
  ...CLAIM_READ,
  request: {
    query: z.strictObject({
      cursor: cursorField.optional(),
      limit: limitField,
      chainId: chainIdQuery.optional(),
      marketAddress: evmAddress.optional(),
    }),
  },
  response: z.object({
    wallet: z.string(),
    receipts: z.array(claimReceiptSchema),
    totalCount: z.number().int(),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
  }),
  mcpTool: "svc_list_claim_receipts",
  async handler(_ctx, { query }, call) {
    const who = await claimantOf(call.services, call.principal);
    const page = await receiptPage(call.services.resolution.claims, who, query);
    return { wallet: who.wallet ?? who.account, ...page };
  },
});
