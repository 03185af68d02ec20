/**
 * The on-chain lane as a catalog `MarketDataSource` (api/domain/markets/data-source.ts): `Services.marketData.onchain`
 * when the indexer runs, so the discovery depth/trades/holders/chart routes of onchain markets answer from the
 * projection, with the catalog's outcome labels. A market the projection does not know (yet), or an unreachable
 * indexer, falls back to the catalog's own answer (`source: "catalog"`) rather than failing the read.
 */
import type { ServiceContext } from "../../context";
import { catalogDataSource, type MarketDataSource } from "../markets/data-source";
import { onchainChart, onchainDepth, onchainHolders, onchainTrades, type OnchainProjection } from "./reads";

export function onchainDataSource(ctx: ServiceContext, projection: OnchainProjection): MarketDataSource {
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
    depth: (m, levels) =>
      orFallback(
        () => onchainDepth(projection, m.address, levels, m.outcomes),
        () => fallback.depth(m, levels),
      ),
    trades: (m, limit) =>
      orFallback(
        async () => {
          const r = await onchainTrades(projection, m.address, limit, undefined, m.outcomes);
          return r && { address: r.address, chainId: r.chainId, trades: r.trades, source: r.source };
        },
        () => fallback.trades(m, limit),
      ),
    holders: (m) =>
      orFallback(
        () => onchainHolders(projection, m.address, m.outcomes),
        () => fallback.holders(m),
      ),
    chart: (m, window) =>
      orFallback(
        () => onchainChart(projection, m.address, window, m.outcomes),
        () => fallback.chart(m, window),
      ),
  };
}
