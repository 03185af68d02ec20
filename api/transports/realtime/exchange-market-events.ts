/**
 * Market events derived from the exchange: after each committed batch of reports, the books of the markets they touch
 * are read from the engine and diffed against the last published state, giving `book:delta` (absolute level totals,
 * so a snapshot read a little ahead of the published batches is corrected by the next deltas), and each taker fill
 * gives `market:trade` plus a `market:price` frame (YES terms). Per-market seq counts every event published.
 */
import type { BookSnapshot, MarketEvent, MarketEventSource } from "./types";

interface EngineBookReader {
  book(marketId: bigint, levels?: number): { bids: { priceBps: number; size: bigint }[]; asks: { priceBps: number; size: bigint }[] } | undefined;
}

interface FillLike {
  marketId: string;
  kind: string;
  outcome?: number;
  action?: string;
  tradeId?: string;
  fillPriceBps?: number;
  fillSize?: bigint;
  liquidity?: string;
  at: number;
}

interface Tracked {
  seq: number;
  bids: Map<number, bigint>;
  asks: Map<number, bigint>;
}

const ALL_LEVELS = 10_000;

export class ExchangeMarketEvents implements MarketEventSource {
  private readonly tracked = new Map<string, Tracked>();
  private readonly listeners = new Set<(e: MarketEvent[]) => void>();
  private readonly off: () => void;

  constructor(
    private readonly exchange: { engine: EngineBookReader; onReports(l: (r: FillLike[]) => void): () => void },
    private readonly now: () => number = Date.now,
  ) {
    this.off = exchange.onReports((reports) => this.onBatch(reports));
  }

  private read(marketId: string): { bids: Map<number, bigint>; asks: Map<number, bigint> } | null {
    if (!/^\d+$/.test(marketId)) return null;
    const depth = this.exchange.engine.book(BigInt(marketId), ALL_LEVELS);
    if (!depth) return null;
    return { bids: new Map(depth.bids.map((l) => [l.priceBps, l.size])), asks: new Map(depth.asks.map((l) => [l.priceBps, l.size])) };
  }

  private onBatch(reports: FillLike[]): void {
    const events: MarketEvent[] = [];
    for (const marketId of new Set(reports.map((r) => r.marketId))) {
      const t = this.tracked.get(marketId);
      if (!t) continue; // nobody asked for this book yet: its first snapshot is its baseline
      const now = this.read(marketId);
      if (!now) continue;
      const at = reports.find((r) => r.marketId === marketId)?.at ?? this.now();
      const push = (type: MarketEvent["type"], data: Record<string, unknown>) => events.push({ marketId, seq: ++t.seq, at, type, data });
      for (const side of ["bid", "ask"] as const) {
        const before = side === "bid" ? t.bids : t.asks;
        const after = side === "bid" ? now.bids : now.asks;
        const prices = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => (side === "bid" ? b - a : a - b));
        for (const p of prices) {
          const size = after.get(p) ?? 0n;
          if ((before.get(p) ?? 0n) !== size) push("book:delta", { side, priceBps: String(p), size: size.toString() });
        }
      }
      t.bids = now.bids;
      t.asks = now.asks;
      for (const r of reports) {
        if (r.marketId !== marketId || r.kind !== "fill" || r.liquidity !== "taker" || r.fillPriceBps === undefined) continue;
        push("market:trade", {
          tradeId: r.tradeId ?? null,
          outcome: r.outcome ?? 0,
          priceBps: String(r.fillPriceBps),
          size: (r.fillSize ?? 0n).toString(),
          takerSide: r.action ?? null,
        });
        const yes = r.outcome === 1 ? 10_000 - r.fillPriceBps : r.fillPriceBps;
        push("market:price", { outcome: 0, priceBps: String(yes) });
      }
    }
    if (events.length > 0) for (const fn of this.listeners) fn(events);
  }

  async bookSnapshot(marketId: string): Promise<BookSnapshot | null> {
    const now = this.read(marketId);
    if (!now) return null;
    let t = this.tracked.get(marketId);
    if (!t) this.tracked.set(marketId, (t = { seq: 0, ...now }));
    const levels = (m: Map<number, bigint>, desc: boolean) =>
      [...m].sort((a, b) => (desc ? b[0] - a[0] : a[0] - b[0])).map(([p, s]) => ({ priceBps: String(p), size: s.toString() }));
    // The snapshot is the state at t.seq as far as published deltas go; level totals read now are at least as new.
    return { marketId, seq: t.seq, at: this.now(), bids: levels(now.bids, true), asks: levels(now.asks, false) };
  }

  /**
   * Publishes a market event that did not come from a book change (a lifecycle transition) on the market's channel,
   * in the same per-market seq. A market nobody subscribed to has no baseline yet: its first snapshot will do.
   */
  announce(marketId: string, type: MarketEvent["type"], at: number, data: Record<string, unknown>): void {
    const t = this.tracked.get(marketId);
    if (!t) return;
    const events = [{ marketId, seq: ++t.seq, at, type, data }];
    for (const fn of this.listeners) fn(events);
  }

  onMarketEvents(listener: (events: MarketEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.off();
  }
}
