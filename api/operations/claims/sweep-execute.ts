import { z } from "zod";
import { chainIdInput } from "../../platform/schemas/chain-id";
import type { Address } from "viem";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { lastWithdrawal } from "../../domain/lifecycle/creator-funds";
import { marketLifecycleAt, type MarketWithLifecycle } from "../../domain/lifecycle/market-lifecycle";
import type { ServiceContext } from "../../context";
import type { Services } from "../../services";
import { fundMovementsOf } from "../../domain/lifecycle/movements";
import { accepted } from "../../platform/errors/engine-rejection";
import { CLAIM_WRITE } from "./common";
import { evmAddress } from "../discover/common";

const hashOrNull = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/)
  .nullable();

/** The answer of a sweep (POST /sweep/execute, and each market of POST /sweep). */
export const sweepCompletionSchema = z.discriminatedUnion("completion", [
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
]);

export type SweepCompletion = z.infer<typeof sweepCompletionSchema>;

/** 409 CONFLICT reason MARKET_NOT_FINAL: a residual is swept once its market is final. */
export function notFinal(mw: MarketWithLifecycle): ApiError {
  return new ApiError("CONFLICT", `market ${mw.market.address} is ${mw.lifecycle.state}: its residual is swept once it is final`, {
    reason: "MARKET_NOT_FINAL",
    state: mw.lifecycle.state,
    marketAddress: mw.market.address,
  });
}

/**
 * Sweeps the residual of a final market (resolved or void: the caller checked) to its creator and answers how it went:
 * committed, a collectCreatorFunds command (POOL_WITHDRAW); on-chain, the contract's withdrawSurplus().
 */
export async function sweepFinalMarket(ctx: ServiceContext, services: Services, mw: MarketWithLifecycle): Promise<SweepCompletion> {
  const { market, lifecycle } = mw;
  const recipient = lifecycle.creator.toLowerCase();
  const nothing = {
    completion: "nothing_to_sweep" as const,
    marketAddress: market.address,
    txHash: null,
    recipient,
    amountSwept: "0" as const,
    source: "no_residual" as const,
  };
  if (market.settlement === "onchain") {
    const resolver = services.resolution.resolver;
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
  const funds = services.venue.exchange.engine.creatorFunds(mw.marketId);
  if (funds && funds.collectable > 0n) {
    const r = accepted(await services.venue.exchange.submit({ type: "collectCreatorFunds", account: lifecycle.creator as Address, marketId: mw.marketId }));
    await services.resolution.projection.sync();
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
  await services.resolution.projection.sync();
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
}

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
      marketAddress: evmAddress,
      chainId: chainIdInput,
    }),
  },
  response: sweepCompletionSchema,
  mcpTool: null,
  async handler(ctx, { body }, call) {
    const mw = await marketLifecycleAt(ctx, call.services.venue.exchange.engine, body.marketAddress, body.chainId);
    if (mw.lifecycle.state !== "resolved" && mw.lifecycle.state !== "void") throw notFinal(mw);
    return sweepFinalMarket(ctx, call.services, mw);
  },
});
