/**
 * The on-chain lane as a catalog `MarketDataSource` (api/domain/markets/data-source.ts): installed at start-up by
 * `startOnchainProjection` so the discovery depth/trades/holders/chart routes of onchain markets answer from the
 * projection, with the catalog's outcome labels. A market the projection does not know (yet), or an unreachable
 * indexer, falls back to the catalog's own answer (`source: "catalog"`) rather than failing the read.
 */
import type { ServiceContext } from "../../context";
import { catalogDataSource, useMarketDataSource, type MarketDataSource } from "../markets/data-source";
import { onchainChart, onchainDepth, onchainHolders, onchainTrades } from "./reads";

export function onchainDataSource(ctx: ServiceContext): MarketDataSource {
  const fallback = catalogDataSource(ctx.db, () => ctx.clock.now());
  const orFallback = async <T>(read: () => Promise<T | null>, otherwise: () => Promise<T>): Promise<T> => {
    try {
      return (await read()) ?? (await otherwise());
    } catch (err) {
      ctx.log.debug({ err: (err as Error).message }, "onchain read fell back to the catalog");
      return otherwise();
    }
  };
  return {
    depth: (m, levels) => orFallback(() => onchainDepth(ctx, m.address, levels, m.outcomes), () => fallback.depth(m, levels)),
    trades: (m, limit) =>
      orFallback(
        async () => {
          const r = await onchainTrades(ctx, m.address, limit, undefined, m.outcomes);
          return r && { address: r.address, chainId: r.chainId, trades: r.trades, source: r.source };
        },
        () => fallback.trades(m, limit),
      ),
    holders: (m) => orFallback(() => onchainHolders(ctx, m.address, m.outcomes), () => fallback.holders(m)),
    chart: (m, window) => orFallback(() => onchainChart(ctx, m.address, window, m.outcomes), () => fallback.chart(m, window)),
  };
}

export function installOnchainDataSource(ctx: ServiceContext): void {
  useMarketDataSource(ctx, "onchain", onchainDataSource(ctx));
}
