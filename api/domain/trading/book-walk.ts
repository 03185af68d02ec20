/**
 * Walking an order book as a taker, without changing it: what `shares` would fill, at what cost and taker fee, the
 * worst level reached and the IOC limit that slippage allows from it. The engine matches a taker against the resting
 * orders of each level in time priority and charges the taker fee per fill (one per maker order, each rounded up on
 * its own: relayer/engine/fees.ts), so the walk sums the fee the same way, order by order; a fee computed once per
 * level, or once at the average price, differs from the charge by the roundings and, under shares-v2, by the
 * curvature of min(p, 10000 - p).
 */

const BPS = 10_000n;

/** One price level as a taker of the outcome meets it: the outcome's own price and the resting orders' sizes, FIFO. */
export interface TakerLevel {
  priceBps: number;
  sizes: readonly bigint[];
}

export interface BookWalk {
  /** Shares the book fills (at most the request). */
  filled: bigint;
  /** Their cost before the fee: per level, floor(size * price / 10000). */
  notional: bigint;
  /** The taker fee of those fills, fill by fill. */
  fee: bigint;
  /** Price of the best level, null on an empty side. */
  best: number | null;
  /** Price of the worst level reached, null when nothing fills. */
  worst: number | null;
  /** `worst` moved by the slippage (up for a buy, down for a sell) within 1..9999; null when nothing fills. */
  limit: number | null;
}

export interface WalkRequest {
  side: "buy" | "sell";
  shares: bigint;
  slippageBps: number;
}

/**
 * Walks `levels` (best first) for `req.shares`. `bound`: only the levels at or better than this price are taken (what
 * an IOC limited to `bound` can fill). `fee(priceBps, size)` is the market's taker fee of one fill.
 */
export function walkBook(levels: readonly TakerLevel[], req: WalkRequest, fee: (priceBps: number, size: bigint) => bigint, bound?: number): BookWalk {
  let left = req.shares;
  let notional = 0n;
  let fees = 0n;
  let worst: number | null = null;
  for (const l of levels) {
    if (left === 0n) break;
    const price = l.priceBps;
    if (bound !== undefined && (req.side === "buy" ? price > bound : price < bound)) break;
    let taken = 0n;
    for (const size of l.sizes) {
      if (left === 0n) break;
      const take = size < left ? size : left;
      fees += fee(price, take);
      taken += take;
      left -= take;
    }
    notional += (taken * BigInt(price)) / BPS;
    worst = price;
  }
  const s = req.slippageBps;
  const limit =
    worst === null
      ? null
      : req.side === "buy"
        ? Math.min(9_999, Math.ceil((worst * (10_000 + s)) / 10_000))
        : Math.max(1, Math.floor((worst * (10_000 - s)) / 10_000));
  return { filled: req.shares - left, notional, fee: fees, best: levels[0]?.priceBps ?? null, worst, limit };
}
