/**
 * In-memory sources with the exact contracts of the exchange: a report log (per-account gap-free seqs, listeners told
 * after each append) and an order book per market (levels, per-market seq, trades and price frames). The realtime
 * tests use them as real sources; they also serve a demo before the exchange is wired.
 */
import type { BookLevel, BookSnapshot, ExecutionReport, MarketEvent, MarketEventSource, ReportSource } from "./types";

/** A report before the log numbers it. */
export interface NewReport {
  account: string;
  kind: string;
  orderId: string;
  marketId: string;
  status: string;
  clientOrderId?: string;
  at?: number;
  [field: string]: unknown;
}

export class MemoryReportLog implements ReportSource {
  private readonly byAccount = new Map<string, ExecutionReport[]>();
  private readonly listeners = new Set<(r: ExecutionReport[]) => void>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Commits reports (seq assigned per account) and tells listeners, unless `silent` (a commit whose notification
   * was lost: what a stream must repair from `reportsOf`).
   */
  append(items: NewReport[], opts: { silent?: boolean } = {}): ExecutionReport[] {
    const made = items.map((i) => {
      const account = i.account.toLowerCase();
      const list = this.byAccount.get(account) ?? [];
      this.byAccount.set(account, list);
      const r = { ...i, account, at: i.at ?? this.now(), seq: list.length + 1 } as ExecutionReport;
      list.push(r);
      return r;
    });
    if (!opts.silent) for (const fn of this.listeners) fn(made);
    return made;
  }

  async reportsOf(account: string, fromSeq: number, limit: number): Promise<ExecutionReport[]> {
    const list = this.byAccount.get(account.toLowerCase()) ?? [];
    return list.slice(Math.max(0, fromSeq - 1), Math.max(0, fromSeq - 1) + limit);
  }

  onReports(listener: (reports: ExecutionReport[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export class MemoryBooks implements MarketEventSource {
  private readonly books = new Map<string, { seq: number; bids: Map<string, bigint>; asks: Map<string, bigint> }>();
  private readonly listeners = new Set<(e: MarketEvent[]) => void>();

  constructor(private readonly now: () => number = Date.now) {}

  open(marketId: string): void {
    if (!this.books.has(marketId)) this.books.set(marketId, { seq: 0, bids: new Map(), asks: new Map() });
  }

  /** Sets a level's total size (0n removes it) and publishes the delta, unless `silent`. */
  setLevel(marketId: string, side: "bid" | "ask", priceBps: number, size: bigint, opts: { silent?: boolean } = {}): MarketEvent {
    const b = this.books.get(marketId);
    if (!b) throw new Error(`no market ${marketId}`);
    const levels = side === "bid" ? b.bids : b.asks;
    if (size === 0n) levels.delete(String(priceBps));
    else levels.set(String(priceBps), size);
    return this.emit(marketId, "book:delta", { side, priceBps: String(priceBps), size: size.toString() }, opts.silent);
  }

  trade(marketId: string, t: { tradeId: string; outcome: number; priceBps: number; size: bigint; takerSide: "buy" | "sell" }): MarketEvent[] {
    return [
      this.emit(marketId, "market:trade", { ...t, priceBps: String(t.priceBps), size: t.size.toString() }),
      this.emit(marketId, "market:price", { outcome: t.outcome, priceBps: String(t.priceBps) }),
    ];
  }

  private emit(marketId: string, type: MarketEvent["type"], data: Record<string, unknown>, silent = false): MarketEvent {
    const b = this.books.get(marketId)!;
    b.seq += 1;
    const e: MarketEvent = { marketId, seq: b.seq, at: this.now(), type, data };
    if (!silent) for (const fn of this.listeners) fn([e]);
    return e;
  }

  async bookSnapshot(marketId: string): Promise<BookSnapshot | null> {
    const b = this.books.get(marketId);
    if (!b) return null;
    const levels = (m: Map<string, bigint>, desc: boolean): BookLevel[] =>
      [...m]
        .sort((x, y) => (desc ? Number(y[0]) - Number(x[0]) : Number(x[0]) - Number(y[0])))
        .map(([priceBps, size]) => ({ priceBps, size: size.toString() }));
    return { marketId, seq: b.seq, at: this.now(), bids: levels(b.bids, true), asks: levels(b.asks, false) };
  }

  onMarketEvents(listener: (events: MarketEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
