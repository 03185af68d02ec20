import { z } from "zod";
import type { Address } from "viem";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { lastWithdrawal } from "../../domain/lifecycle/creator-funds";
import { marketLifecycleAt } from "../../domain/lifecycle/market-lifecycle";
import { fundMovementsOf } from "../../domain/lifecycle/movements";
import { accepted } from "../../platform/errors/engine-rejection";
import { CLAIM_WRITE } from "./common";

const hashOrNull = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/)
  .nullable();

/**
 * POST /sweep/execute: the residual of a final market goes to its creator, whoever asks (the service submits and pays;
 * the recipient is always the creator). Committed: a POOL_WITHDRAW journal movement, whose txHash is the ledger batch
 * that carries it (null until that batch is confirmed; ask again for it). On-chain: the contract's withdrawSurplus().
 */
export const executeSweep = defineOperation({
  id: "executeSweep",
  method: "POST",
  path: "/sweep/execute",
  summary: "Sweep a final market's residual funds to its creator",
  description:
    'completion: swept | already_swept | nothing_to_sweep. Before finality: 409 CONFLICT reason MARKET_NOT_FINAL. See docs/resolution.md "Creator funds and sweeps".',
  ...CLAIM_WRITE,
  errors: ["MARKET_NOT_FOUND", "CONFLICT"],
  request: {
    body: z.strictObject({
      marketAddress: z
        .string()
        .regex(/^0x[0-9a-fA-F]{40}$/)
        .transform((a) => a.toLowerCase()),
      chainId: z.number().int().positive(),
    }),
  },
  response: z.discriminatedUnion("completion", [
    z.object({
      completion: z.literal("swept"),
      marketAddress: z.string(),
      txHash: hashOrNull,
      recipient: z.string(),
      amountSwept: z.string().regex(/^[1-9]\d*$/),
      source: z.literal("receipt_event"),
    }),
    z.object({
      completion: z.literal("already_swept"),
      marketAddress: z.string(),
      txHash: hashOrNull,
      recipient: z.string(),
      amountSwept: z.string().regex(/^[1-9]\d*$/),
      source: z.literal("chain_event"),
    }),
    z.object({
      completion: z.literal("nothing_to_sweep"),
      marketAddress: z.string(),
      txHash: z.null(),
      recipient: z.string(),
      amountSwept: z.literal("0"),
      source: z.literal("no_residual"),
    }),
  ]),
  mcpTool: null,
  async handler(ctx, { body }, call) {
    const mw = await marketLifecycleAt(ctx, call.services, body.marketAddress, body.chainId);
    const { market, lifecycle } = mw;
    const recipient = lifecycle.creator.toLowerCase();
    if (lifecycle.state !== "resolved" && lifecycle.state !== "void") {
      throw new ApiError("CONFLICT", `market ${market.address} is ${lifecycle.state}: its residual is swept once it is final`, {
        reason: "MARKET_NOT_FINAL",
        state: lifecycle.state,
      });
    }
    const nothing = {
      completion: "nothing_to_sweep" as const,
      marketAddress: market.address,
      txHash: null,
      recipient,
      amountSwept: "0" as const,
      source: "no_residual" as const,
    };
    if (market.settlement === "onchain") {
      const resolver = call.services.resolution.resolver;
      const r = await resolver.send(market.address as Address, "withdrawSurplus");
      if (r.status !== "success") throw new ApiError("SERVICE_UNAVAILABLE", `withdrawSurplus reverted in ${r.txHash}`);
      // The amount is in the receipt's SurplusWithdrawn event; none means nothing was left.
      const amount = await resolver.receiptSurplus(r.txHash);
      return amount > 0n
        ? {
            completion: "swept" as const,
            marketAddress: market.address,
            txHash: r.txHash,
            recipient,
            amountSwept: amount.toString(),
            source: "receipt_event" as const,
          }
        : nothing;
    }
    const funds = call.services.venue.exchange.engine.creatorFunds(mw.marketId);
    if (funds && funds.collectable > 0n) {
      const r = accepted(
        await call.services.venue.exchange.submit({ type: "collectCreatorFunds", account: lifecycle.creator as Address, marketId: mw.marketId }),
      );
      await call.services.resolution.projection.sync();
      const w = lastWithdrawal(await fundMovementsOf(ctx.db, mw.marketId));
      return {
        completion: "swept" as const,
        marketAddress: market.address,
        txHash: w?.txHash ?? null,
        recipient,
        amountSwept: r.result.amount.toString(),
        source: "receipt_event" as const,
      };
    }
    await call.services.resolution.projection.sync();
    const w = lastWithdrawal(await fundMovementsOf(ctx.db, mw.marketId));
    if (w && w.amount > 0n)
      return {
        completion: "already_swept" as const,
        marketAddress: market.address,
        txHash: w.txHash,
        recipient,
        amountSwept: w.amount.toString(),
        source: "chain_event" as const,
      };
    return nothing;
  },
});
