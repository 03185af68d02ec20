/**
 * Lists market specs in the catalog (committed lane, PM collateral), idempotently by externalId: a second run adds
 * only the specs it has not seen. Returns every spec with its marketId and address, so the caller can create the
 * markets in the exchange engine (createMarket, LMSR seed) — which this module does not do.
 */
import type { SqlRunner } from "../../../../relayer/db/client";
import type { Clock } from "../../../../relayer/clock";
import { insertCatalogMarket } from "../catalog-store";
import { FEE_DEFAULTS } from "../fee-defaults";
import { marketSpecSchema, type MarketSpec } from "./market-spec";

/** Creator of seeded markets when none is given: the house account (no key; it only names the listing's origin). */
export const HOUSE_CREATOR = "0x00000000000000000000000000000000000000a1";

export interface SeedOptions {
  chainId?: number;
  creator?: string;
}

export interface SeededMarket {
  spec: MarketSpec;
  marketId: bigint;
  address: string;
  /** False when the externalId was already listed (the listed market is returned unchanged). */
  created: boolean;
}

export async function seedCatalog(db: SqlRunner, clock: Clock, specs: readonly MarketSpec[], opts: SeedOptions = {}): Promise<SeededMarket[]> {
  const out: SeededMarket[] = [];
  for (const raw of specs) {
    const spec = marketSpecSchema.parse(raw);
    const now = clock.now();
    const lmsr = spec.pricingModel === "automated";
    const { market, created } = await insertCatalogMarket(db, {
      chainId: opts.chainId ?? 8453,
      settlement: "committed",
      pricingModel: spec.pricingModel,
      title: spec.title,
      description: spec.description,
      category: spec.category,
      outcomes: spec.outcomes,
      creator: opts.creator ?? HOUSE_CREATOR,
      openTime: now,
      closeTime: spec.closeTime,
      takerFeeBps: spec.takerFeeBps,
      feePolicyVersion: spec.feePolicyVersion,
      sellExitFeeBps: lmsr ? FEE_DEFAULTS.lmsr.sellExitFeeBps : 0,
      winningsExitFeeBps: lmsr ? FEE_DEFAULTS.lmsr.winningsExitFeeBps : FEE_DEFAULTS.orderbook.winningsExitFeeBps,
      lmsrSeed: spec.seed,
      resolutionSource: spec.resolutionSource,
      sourceConditionId: spec.sourceConditionId,
      sourceTokenIds: spec.sourceTokenIds,
      election: spec.election,
      externalId: spec.externalId,
      createdAt: now,
    });
    if (market.marketId === null) throw new Error(`${spec.externalId} is listed as an onchain market`);
    out.push({ spec, marketId: market.marketId, address: market.address, created });
  }
  return out;
}
