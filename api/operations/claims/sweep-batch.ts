import { z } from "zod";
import type { Address } from "viem";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { creatorMarkets } from "../../domain/lifecycle/creator-funds";
import { chainIdInput } from "../../platform/schemas/chain-id";
import { CLAIM_WRITE, MAX_CLAIM_MARKETS, marketAddressList } from "./common";
import { notFinal, sweepCompletionSchema, sweepFinalMarket } from "./sweep-execute";

/**
 * POST /sweep: the batch sweep (the spec names it in "Operations named only in workflows"; its payload is ours,
 * docs/resolution.md "Creator funds and sweeps"). The caller sweeps its own final markets' residuals to itself: the
 * named markets (1..100), or without names every committed-lane market of its whose pool still holds a residual, at
 * most 100 a call (`hasMore` says more remain). Each market answers exactly as POST /sweep/execute does.
 *
 * Every named market is checked before anything moves: one that is unknown, not the caller's, or not final refuses
 * the whole call (MARKET_NOT_FOUND, FORBIDDEN reason NOT_CREATOR, CONFLICT reason MARKET_NOT_FINAL), so a bad batch
 * sweeps nothing. REST-only, like /sweep/execute.
 */
export const executeSweepBatch = defineOperation({
  id: "executeSweepBatch",
  method: "POST",
  path: "/sweep",
  summary: "Sweep the residual funds of the caller's final markets to the caller (batch)",
  description:
    "body {chainId, marketAddresses?}: the named markets (1..100) or every one of the caller's committed-lane markets with a residual (100 a call, hasMore). One answer per market with /sweep/execute's completion (swept | already_swept | nothing_to_sweep). A named market that is unknown, not the caller's or not final refuses the whole call, sweeping nothing. See docs/resolution.md \"Creator funds and sweeps\".",
  ...CLAIM_WRITE,
  errors: ["MARKET_NOT_FOUND", "FORBIDDEN", "CONFLICT"],
  request: {
    body: z.strictObject({
      chainId: chainIdInput,
      marketAddresses: marketAddressList.refine((a) => new Set(a).size === a.length, "each market at most once").optional(),
    }),
  },
  response: z.object({
    walletAddress: z.string(),
    chainId: z.number().int(),
    sweeps: z.array(sweepCompletionSchema),
    hasMore: z.boolean(),
  }),
  mcpTool: null,
  async handler(ctx, { body }, call) {
    const account = (await call.services.venue.accountOf(call.principal)) as Address;
    if (body.chainId !== ctx.config.CHAIN_ID) {
      // No market of this service is on another chain: nothing to sweep there, and a named one is unknown.
      const named = body.marketAddresses?.[0];
      if (named) throw new ApiError("MARKET_NOT_FOUND", `no market ${named} on chain ${body.chainId}`, { address: named, chainId: body.chainId });
      return { walletAddress: account, chainId: body.chainId, sweeps: [], hasMore: false };
    }
    const mine = await creatorMarkets(ctx, call.services.venue.exchange.engine, call.services.resolution.projection, account);
    const final = (state: string) => state === "resolved" || state === "void";
    let targets: typeof mine;
    if (body.marketAddresses) {
      // Checked first, all of them: a refused batch moves nothing.
      targets = body.marketAddresses.map((address) => {
        const f = mine.find((m) => m.market.address === address);
        if (!f) {
          throw new ApiError("FORBIDDEN", `market ${address} is not one of the caller's markets (or is unknown)`, {
            reason: "NOT_CREATOR",
            marketAddress: address,
          });
        }
        return f;
      });
      const early = targets.find((f) => !final(f.lifecycle.state));
      if (early) throw notFinal({ market: early.market, marketId: BigInt(early.lifecycle.marketId), lifecycle: early.lifecycle });
    } else {
      targets = mine.filter((f) => final(f.lifecycle.state) && f.market.settlement !== "onchain" && f.funds.collectable > 0n);
    }
    const page = targets.slice(0, MAX_CLAIM_MARKETS);
    const sweeps = [];
    for (const f of page) {
      sweeps.push(await sweepFinalMarket(ctx, call.services, { market: f.market, marketId: BigInt(f.lifecycle.marketId), lifecycle: f.lifecycle }));
    }
    return { walletAddress: account, chainId: ctx.config.CHAIN_ID, sweeps, hasMore: targets.length > page.length };
  },
});
