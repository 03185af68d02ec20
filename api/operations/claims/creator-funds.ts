import { z } from "zod";
import { chainIdQuery } from "../../platform/schemas/chain-id";
import { defineOperation } from "../../registry/types";
import { CLAIM_READ } from "./common";
import { creatorFundsSummary, creatorMarkets, marketEntry } from "../../domain/lifecycle/creator-funds";

const bondSchema = z.object({
  status: z.enum(["returnable", "pending", "returned", "unavailable", "none", "unknown"]),
  displayStatus: z.enum(["ready", "pending", "returned", "unavailable", "none", "syncing"]),
  reasonCode: z.enum(["action_available", "settled", "unavailable", "not_created", "indexing_pending", "unknown"]),
  amountWei: z.string(),
  amountFormatted: z.string(),
  symbol: z.literal("PM"),
  txHash: z.string().optional(),
  terminalTxHash: z.string().optional(),
  reason: z.string().optional(),
});

export const creatorFundsMarketSchema = z.object({
  chainId: z.number().int(),
  marketAddress: z.string(),
  marketTitle: z.string(),
  marketBalance: z.object({
    status: z.enum(["claimable", "pending_resolution", "challenge_window", "too_early", "zero", "collected", "unknown"]),
    amount: z.string(),
    amountFormatted: z.string(),
    tokenAddress: z.string().nullable(),
    symbol: z.string(),
    decimals: z.number().int(),
    reason: z.string().optional(),
  }),
  bond: bondSchema,
});

/**
 * GET /trade/creator-funds: the caller's markets as creator, each with its pool residual (collectable after finality)
 * and its creation bond (returned automatically when its proposal stands, slashed otherwise).
 */
export const getCreatorFunds = defineOperation({
  id: "getCreatorFunds",
  method: "GET",
  path: "/trade/creator-funds",
  summary: "The caller's creator funds: market residuals and creation bonds",
  ...CLAIM_READ,
  request: { query: z.strictObject({ chainId: chainIdQuery.optional() }) },
  response: z.object({
    walletAddress: z.string(),
    chainId: z.number().int().nullable(),
    creatorFunds: z.object({
      markets: z.array(creatorFundsMarketSchema),
      summary: z.object({
        marketBalanceByToken: z.array(
          z.object({
            chainId: z.number().int(),
            tokenAddress: z.string().nullable(),
            symbol: z.string(),
            decimals: z.number().int(),
            totalWei: z.string(),
            totalFormatted: z.string(),
          }),
        ),
        bondReturnableWei: z.string(),
        bondReturnedWei: z.string(),
        collectableCount: z.number().int(),
        error: z.string().optional(),
      }),
    }),
    workflow: z.object({
      fundsLabel: z.literal("creator_funds"),
      marketBalanceSemantics: z.string(),
      creationBondSemantics: z.string(),
      execution: z.string(),
    }),
  }),
  mcpTool: "svc_get_creator_funds",
  async handler(ctx, { query }, call) {
    const account = await call.services.venue.accountOf(call.principal);
    const all =
      query.chainId !== undefined && query.chainId !== ctx.config.CHAIN_ID
        ? []
        : await creatorMarkets(ctx, call.services.venue.exchange.engine, call.services.resolution.projection, account);
    return {
      walletAddress: account,
      chainId: query.chainId ?? null,
      creatorFunds: { markets: all.map(marketEntry), summary: creatorFundsSummary(all) },
      workflow: {
        fundsLabel: "creator_funds" as const,
        marketBalanceSemantics:
          "what the market's pool holds after every holder was paid: collectable by the creator once the market is final (POST /trade/creator-funds/collect or POST /sweep/execute)",
        creationBondSemantics:
          "the PM bond locked at creation: returned automatically at finality when the creator's proposal stands; slashed when the creator missed its window or the proposal was overturned",
        execution:
          "the service submits and pays: a committed collection is a journal movement (POOL_WITHDRAW) published in the next ledger batch; money only ever reaches the creator",
      },
    };
  },
});
