/**
 * Keeps the catalog's onchain rows in step with the projection: every LmsrMarket the indexer has seen is listed
 * through `upsertOnchainMarket` (api/markets/onchain-listing.ts), and its state follows resolution/void. Runs every
 * `intervalMs` while the service runs; one failed pass (indexer down) is logged and retried on the next tick.
 */
import type { ServiceContext } from "../context";
import { upsertOnchainMarket } from "../markets/onchain-listing";
import { installOnchainDataSource } from "./data-source";
import { defaultLabels, listOnchainMarkets, projectionFreshness, type OnchainMarket } from "./reads";
import { deploymentFile, readDeployment } from "../discovery-docs/deployment";
import { existsSync } from "node:fs";

export const CATALOG_SYNC_MS = 2_000;

function symbolOf(ctx: ServiceContext, token: string): string {
  const file = deploymentFile(ctx.config.CHAIN_ID);
  if (!existsSync(file)) return "UNKNOWN";
  return readDeployment(file).collaterals.find((c) => c.token.toLowerCase() === token.toLowerCase())?.symbol ?? "UNKNOWN";
}

/** One pass: lists or refreshes every projected market. Returns how many it saw. */
export async function syncOnchainCatalog(ctx: ServiceContext): Promise<number> {
  // Only an indexer of this service's chain may list markets (a Ponder of another chain on PONDER_PORT must not).
  const freshness = await projectionFreshness(ctx);
  if (freshness.cursors[0]?.blockNumber == null) return 0;
  const seen = new Set<string>();
  for (let offset = 0; ; offset += 1000) {
    const page = await listOnchainMarkets(ctx, { limit: 1000, offset });
    for (const m of page) if (!seen.has(m.address)) await upsert(ctx, m), seen.add(m.address);
    if (page.length < 1000) break;
  }
  return seen.size;
}

async function upsert(ctx: ServiceContext, m: OnchainMarket): Promise<void> {
  const createdAt = Number(m.createdAt) * 1000;
  await upsertOnchainMarket(ctx.db, {
    chainId: ctx.config.CHAIN_ID,
    address: m.address,
    pricingModel: "automated",
    title: m.question.slice(0, 300) || `LMSR market ${m.marketId}`,
    category: "OTHER",
    outcomes: defaultLabels(m.outcomeCount),
    creator: m.creator,
    collateral: { symbol: symbolOf(ctx, m.collateral), decimals: 6, token: m.collateral },
    openTime: createdAt,
    closeTime: Number(m.closeTime) * 1000,
    sellExitFeeBps: m.sellExitFeeBps,
    winningsExitFeeBps: m.winningsExitFeeBps,
    lmsrSeed: BigInt(m.seed),
    resolutionSource: { kind: "onchain-resolver", factory: m.factory },
    createdAt,
    state: m.state === 1 ? "resolved" : m.state === 2 ? "void" : undefined,
    resolvedAt: m.settledAt ? Number(m.settledAt) * 1000 : null,
    resolvedOutcome: m.winningOutcome,
  });
}

/** Installs the onchain data source and starts the periodic catalog sync; `stop()` ends it. */
export function startOnchainProjection(ctx: ServiceContext, intervalMs = CATALOG_SYNC_MS): { stop(): void } {
  installOnchainDataSource(ctx);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      await syncOnchainCatalog(ctx);
    } catch (err) {
      ctx.log.debug({ err: (err as Error).message }, "onchain catalog sync skipped");
    }
    if (!stopped) timer = setTimeout(tick, intervalMs).unref();
  };
  timer = setTimeout(tick, 0).unref();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
