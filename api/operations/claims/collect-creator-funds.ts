import { z } from "zod";
import type { Address } from "viem";
import { defineOperation } from "../../registry/types";
import { bondOf, creatorMarkets } from "../../domain/lifecycle/creator-funds";
import { CLAIM_WRITE, marketAddressList } from "./common";
import { chainIdInput } from "../../platform/schemas/chain-id";

const MAX_COLLECTIONS = 50;

/**
 * POST /trade/creator-funds/collect: the caller (a creator) collects the residual of its final markets, the named ones
 * or every collectable one oldest first (at most 50 a call; hasMore says more remain). The engine refuses anyone but
 * the creator, so money only ever reaches the creator. The bond needs no collection: it came back at finality.
 */
export const collectCreatorFunds = defineOperation({
  id: "collectCreatorFunds",
  method: "POST",
  path: "/trade/creator-funds/collect",
  summary: "Collect the residual of the caller's final markets (money only reaches the creator)",
  ...CLAIM_WRITE,
  request: {
    body: z.strictObject({
      chainId: chainIdInput.optional(),
      marketAddresses: marketAddressList.optional(),
    }),
  },
  response: z.object({
    walletAddress: z.string(),
    collections: z.array(
      z.object({
        chainId: z.number().int(),
        marketAddress: z.string(),
        marketBalance: z.object({
          state: z.enum(["COLLECTED", "NOTHING_TO_COLLECT", "SKIPPED"]),
          txHash: z.string().nullable(),
          amount: z.string(),
          skippedReason: z.string().optional(),
        }),
        bond: z.object({ state: z.enum(["COLLECTED", "SKIPPED"]), txHash: z.string().nullable(), skippedReason: z.string().optional() }),
      }),
    ),
    hasMore: z.boolean(),
  }),
  mcpTool: "svc_collect_creator_funds",
  async handler(ctx, { body }, call) {
    const account = (await call.services.venue.accountOf(call.principal)) as Address;
    const mine =
      body.chainId !== undefined && body.chainId !== ctx.config.CHAIN_ID
        ? []
        : await creatorMarkets(ctx, call.services.venue.exchange.engine, call.services.resolution.projection, account);
    const named = body.marketAddresses;
    const targets = named
      ? named.map((a) => ({ address: a, f: mine.find((m) => m.market.address === a) }))
      : mine.filter((m) => m.funds.final && m.funds.collectable > 0n).map((f) => ({ address: f.market.address, f }));
    const page = targets.slice(0, MAX_COLLECTIONS);
    const collections = [];
    for (const { address, f } of page) {
      const chainId = body.chainId ?? ctx.config.CHAIN_ID;
      if (!f) {
        collections.push({
          chainId,
          marketAddress: address,
          marketBalance: { state: "SKIPPED" as const, txHash: null, amount: "0", skippedReason: "NOT_CREATOR_OR_NOT_FOUND" },
          bond: { state: "SKIPPED" as const, txHash: null, skippedReason: "NOT_CREATOR_OR_NOT_FOUND" },
        });
        continue;
      }
      const bond = bondOf(f);
      const bondOut =
        bond.status === "returned"
          ? { state: "COLLECTED" as const, txHash: bond.txHash ?? null }
          : {
              state: "SKIPPED" as const,
              txHash: null,
              skippedReason: bond.status === "pending" ? "BOND_LOCKED_UNTIL_FINAL" : bond.status === "none" ? "NO_BOND" : "BOND_SLASHED",
            };
      if (!f.funds.final) {
        collections.push({
          chainId,
          marketAddress: address,
          marketBalance: { state: "SKIPPED" as const, txHash: null, amount: "0", skippedReason: "NOT_FINAL" },
          bond: bondOut,
        });
        continue;
      }
      const r = await call.services.venue.exchange.submit({ type: "collectCreatorFunds", account, marketId: BigInt(f.lifecycle.marketId) });
      if (!r.ok) {
        collections.push({
          chainId,
          marketAddress: address,
          marketBalance: { state: "SKIPPED" as const, txHash: null, amount: "0", skippedReason: r.code },
          bond: bondOut,
        });
        continue;
      }
      const amount = r.result.amount;
      collections.push({
        chainId,
        marketAddress: address,
        marketBalance: { state: amount > 0n ? ("COLLECTED" as const) : ("NOTHING_TO_COLLECT" as const), txHash: null, amount: amount.toString() },
        bond: bondOut,
      });
    }
    return { walletAddress: account, collections, hasMore: targets.length > page.length };
  },
});
