/**
 * Keeps the catalog's onchain rows in step with the projection, every `intervalMs` while the service runs; one failed
 * pass (indexer down) is logged and retried on the next tick. Per projected LmsrMarket:
 *   - listed through `upsertOnchainMarket` (api/domain/markets/onchain-listing.ts) when new, and again when its state follows
 *     resolution/void;
 *   - its activity (prices from the projected q and b, volumeTotal, tradeCount, lastTradeAt, and the trades of the last
 *     24 h behind volume24h and sort=volume_24h) copied with `setOnchainActivity` when it differs from the catalog's.
 * Discovery list and detail then read the catalog (and its in-process cache) only: no projection round trip per read.
 * A pass writes nothing for a market that did not move, so the catalog cache survives idle passes.
 */
import type { ServiceContext } from "../../context";
import { onchainCatalogEntries, setOnchainActivity, upsertOnchainMarket, type OnchainCatalogEntry, type OnchainCatalogTrade } from "../markets/onchain-listing";
import { prices, WAD } from "../../../relayer/pricing/lmsr";
import { defaultLabels, listOnchainMarkets, projectionFreshness, type OnchainMarket, type OnchainProjection } from "./reads";
import { readDeployment } from "../protocol/deployment";
import { existsSync } from "node:fs";

export const CATALOG_SYNC_MS = 2_000;
const DAY_MS = 86_400_000;
const PAGE = 1000;

function symbolOf(ctx: ServiceContext, token: string): string {
  const file = ctx.config.deploymentFile;
  if (!existsSync(file)) return "UNKNOWN";
  return readDeployment(file).collaterals.find((c) => c.token.toLowerCase() === token.toLowerCase())?.symbol ?? "UNKNOWN";
}

/** One pass: lists or refreshes every projected market. Returns how many it saw. */
export async function syncOnchainCatalog(ctx: ServiceContext, projection: OnchainProjection): Promise<number> {
  // Only an indexer of this service's chain may list markets (a Ponder of another chain on PONDER_PORT must not).
  const freshness = await projectionFreshness(projection);
  if (freshness.cursors[0]?.blockNumber == null) return 0;
  const listed = await onchainCatalogEntries(ctx.db, ctx.config.CHAIN_ID);
  const seen = new Set<string>();
  for (let offset = 0; ; offset += PAGE) {
    const page = await listOnchainMarkets(projection, { limit: PAGE, offset });
    for (const m of page) {
      if (seen.has(m.address)) continue;
      seen.add(m.address);
      await syncMarket(ctx, projection, m, listed.get(m.address));
    }
    if (page.length < PAGE) break;
  }
  return seen.size;
}

const lifecycleOf = (m: OnchainMarket) => ({
  state: m.state === 1 ? ("resolved" as const) : m.state === 2 ? ("void" as const) : undefined,
  resolvedAt: m.settledAt ? Number(m.settledAt) * 1000 : null,
  resolvedOutcome: m.winningOutcome,
});

/** Prices as parts per million, floored like the catalog's opening prices. */
const ppm = (wad: bigint) => Number((wad * 1_000_000n) / WAD);

async function syncMarket(ctx: ServiceContext, projection: OnchainProjection, m: OnchainMarket, known: OnchainCatalogEntry | undefined): Promise<void> {
  const life = lifecycleOf(m);
  let entry = known;
  if (!entry || (life.state && (entry.state !== life.state || entry.resolvedAt !== life.resolvedAt || entry.resolvedOutcome !== life.resolvedOutcome))) {
    entry = await upsert(ctx, m);
  }
  const activity = {
    lastPricesPpm: prices({ b: BigInt(m.b), q: m.q.map(BigInt) }).map(ppm),
    lastTradeAt: m.lastTradeAt === null ? null : Number(m.lastTradeAt) * 1000,
    volumeTotal: BigInt(m.volume),
    tradeCount: m.tradeCount,
  };
  const moved =
    activity.tradeCount !== entry.tradeCount ||
    activity.volumeTotal !== entry.volumeTotal ||
    activity.lastTradeAt !== entry.lastTradeAt ||
    activity.lastPricesPpm.some((p, i) => p !== entry.lastPricesPpm[i]);
  if (!moved) return;
  await setOnchainActivity(ctx.db, ctx.config.CHAIN_ID, m.address, { ...activity, recentTrades: await recentTrades(ctx, projection, m) });
}

/** The projection's trades of the last 24 h by the service clock (paged newest first), as catalog trades. */
async function recentTrades(ctx: ServiceContext, projection: OnchainProjection, m: OnchainMarket): Promise<OnchainCatalogTrade[]> {
  const { reader } = projection;
  const since = Math.floor((ctx.clock.now() - DAY_MS) / 1000);
  const b = BigInt(m.b);
  const out: OnchainCatalogTrade[] = [];
  for (let before: string | undefined; ; ) {
    const rows = await reader.trades(m.address, { limit: PAGE, before, since });
    for (const t of rows) {
      out.push({
        outcome: t.outcome,
        pricePpm: ppm(prices({ b, q: t.q.map(BigInt) })[t.outcome] ?? 0n),
        size: BigInt(t.shares),
        // Cost plus fee (buy) or gross proceeds (sell): the same measure as the projection's `volume`.
        notional: BigInt(t.amount) + BigInt(t.fee),
        takerSide: t.isBuy ? "buy" : "sell",
        at: Number(t.timestamp) * 1000,
      });
    }
    const last = rows[rows.length - 1];
    if (rows.length < PAGE || !last) return out;
    before = `${last.blockNumber}:${last.logIndex}`;
  }
}

async function upsert(ctx: ServiceContext, m: OnchainMarket) {
  const createdAt = Number(m.createdAt) * 1000;
  return upsertOnchainMarket(ctx.db, {
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
    ...lifecycleOf(m),
  });
}

/** Starts the periodic catalog sync from `projection`; `stop()` ends it. */
export function startOnchainCatalogSync(ctx: ServiceContext, projection: OnchainProjection, intervalMs = CATALOG_SYNC_MS): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      await syncOnchainCatalog(ctx, projection);
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
