/**
 * Market data of committed-lane markets from the live engine: the order book (5 levels by default, YES terms) or the
 * LMSR buy ladder, and holder balances. Trades and charts stay with the catalog, which records every fill
 * (api/domain/venue/trade-recorder.ts).
 */
import type { Address } from "viem";
import type { Exchange } from "../../../relayer/exchange/exchange";
import { outcomeAssetId, poolAccountOf, SUPPLY_ACCOUNT, type OutcomeIndex } from "../../../decoder";
import type { MarketDataSource, MarketDepth, MarketHolders } from "../markets/data-source";
import type { CatalogMarket } from "../markets/catalog-types";

const WAD = 10n ** 18n;
/** LMSR ladder rungs, in whole shares (1 share = 10^decimals base units). */
const LADDER_SHARES = [1n, 10n, 100n, 1_000n, 10_000n, 100_000n, 1_000_000n];
const TOP_HOLDERS = 20;

export function engineDataSource(exchange: Exchange, now: () => number): Pick<MarketDataSource, "depth" | "holders"> {
  return {
    async depth(m, levels): Promise<MarketDepth> {
      const base = { address: m.address, chainId: m.chainId, levels, asOf: new Date(now()).toISOString(), source: "engine" };
      const id = marketIdOf(m);
      if (m.pricingModel === "ORDERBOOK") {
        const book = exchange.engine.book(id, levels);
        const side = (ls: readonly { priceBps: number; size: bigint }[] | undefined) =>
          (ls ?? []).map((l) => ({ priceBps: String(l.priceBps), size: l.size.toString() }));
        return { kind: "orderbook", ...base, bids: side(book?.bids), asks: side(book?.asks) };
      }
      const unit = 10n ** BigInt(m.collateral.decimals);
      return {
        kind: "lmsr",
        ...base,
        outcomes: m.outcomes.map((label, index) => {
          const ladder = LADDER_SHARES.slice(0, levels).flatMap((n) => {
            const q = exchange.engine.lmsrQuote(id, index as OutcomeIndex, "BUY", n * unit);
            return q
              ? [{ size: q.shares.toString(), cost: q.collateral.toString(), averageProbability: Number((q.collateral * 1_000_000n) / q.shares) / 1e6 }]
              : [];
          });
          return { index, label, probability: probabilityOf(exchange, id, index, unit), ladder };
        }),
      };
    },

    async holders(m): Promise<MarketHolders> {
      const id = marketIdOf(m);
      const skip = new Set<string>([SUPPLY_ACCOUNT, poolAccountOf(id).toLowerCase()]);
      const accounts = exchange.engine.accounts().filter((a) => !skip.has(a.toLowerCase()));
      const outcomes = m.outcomes.map((label, index) => {
        const asset = outcomeAssetId(id, index as OutcomeIndex);
        const held = accounts
          .map((account) => ({ account, size: exchange.engine.balance(account as Address, asset).total }))
          .filter((h) => h.size > 0n)
          .sort((a, b) => (a.size === b.size ? (a.account < b.account ? -1 : 1) : a.size > b.size ? -1 : 1));
        const outstanding = held.reduce((s, h) => s + h.size, 0n);
        return {
          index,
          label,
          holders: held.slice(0, TOP_HOLDERS).map((h) => ({ account: h.account, size: h.size.toString() })),
          outstanding: outstanding.toString(),
        };
      });
      // Open interest = the most the market could pay out: every share pays one collateral unit if its outcome wins.
      const openInterest = outcomes.reduce((max, o) => (BigInt(o.outstanding) > max ? BigInt(o.outstanding) : max), 0n);
      return { address: m.address, chainId: m.chainId, outcomes, openInterest: openInterest.toString(), asOf: new Date(now()).toISOString(), source: "engine" };
    },
  };
}

function marketIdOf(m: CatalogMarket): bigint {
  if (m.marketId === null) throw new Error(`${m.address} is not a committed-lane market`);
  return m.marketId;
}

/** The marginal price of an LMSR outcome now, from a one-unit quote's price-after (WAD). */
function probabilityOf(exchange: Exchange, id: bigint, index: number, unit: bigint): number | null {
  const q = exchange.engine.lmsrQuote(id, index as OutcomeIndex, "BUY", unit / 1_000_000n || 1n);
  return q ? Number((q.priceAfterWad * 1_000_000n) / WAD) / 1e6 : null;
}
