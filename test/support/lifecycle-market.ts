/**
 * A committed market with a lifecycle, for tests and benches that need one before the negotiate flow is in reach:
 * the catalog row (its marketId and address) and the engine's createMarket with the creator (BOND_LOCK of the
 * creation bond, the creator-funded LMSR seed), exactly what market creation submits.
 */
import type { Address } from "viem";
import type { RunningService } from "../../api/service";
import { insertCatalogMarket } from "../../api/domain/markets/catalog-store";
import type { CatalogMarket } from "../../api/domain/markets/catalog-types";
import { accepted } from "../../api/platform/errors/engine-rejection";
import type { FeeModel } from "../../relayer/engine";

export async function createLifecycleMarket(
  svc: RunningService,
  opts: { creator: Address; closeTime: number; seed?: bigint; pricing?: "LMSR" | "ORDERBOOK"; title?: string; winningsExitFeeBps?: number },
): Promise<CatalogMarket> {
  const { ctx, services } = svc;
  const now = ctx.clock.now();
  const lmsr = (opts.pricing ?? "LMSR") === "LMSR";
  const seed = lmsr ? (opts.seed ?? 500_000_000n) : undefined;
  const { market } = await insertCatalogMarket(ctx.db, {
    chainId: ctx.config.CHAIN_ID,
    settlement: "committed",
    pricingModel: lmsr ? "automated" : "ORDERBOOK",
    title: opts.title ?? "Will the test resolve YES?",
    category: "OTHER",
    outcomes: ["YES", "NO"],
    creator: opts.creator,
    openTime: now,
    closeTime: opts.closeTime,
    ...(seed !== undefined ? { lmsrSeed: seed } : {}),
    ...(opts.winningsExitFeeBps !== undefined ? { winningsExitFeeBps: opts.winningsExitFeeBps } : {}),
    resolutionSource: { type: "manual" },
    createdAt: now,
  });
  accepted(
    await services.venue.exchange.submit({
      type: "createMarket",
      marketId: market.marketId!,
      pricing: lmsr ? "LMSR" : "ORDERBOOK",
      outcomes: 2,
      feeModel: market.feePolicyVersion as FeeModel,
      takerFeeBps: market.takerFeeBps,
      sellExitFeeBps: market.sellExitFeeBps,
      winningsExitFeeBps: market.winningsExitFeeBps,
      ...(seed !== undefined ? { seed, funder: opts.creator } : {}),
      creator: opts.creator,
      openTime: now,
      closeTime: opts.closeTime,
    }),
  );
  return market;
}
