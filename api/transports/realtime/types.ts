/**
 * The realtime surface's contracts: what the exchange (execution reports) and the market-data side (books, trades,
 * price frames) must offer so the hub can fan their events out over SSE, WebSocket and webhooks. Each plugs in with one
 * line (`connectRealtimeSources`, api/transports/delivery.ts); nothing here imports the engine.
 */

/**
 * The fields of an execution report the realtime surface relies on (the engine's ExecutionReport, relayer/engine/
 * types.ts, has these and more; every field is forwarded). `seq` is per account, gap-free, from 1.
 */
export interface ExecutionReport {
  account: string;
  seq: number;
  at: number;
  kind: string;
  orderId: string;
  clientOrderId?: string;
  marketId: string;
  status: string;
}

/** The exchange's side: `Exchange.reportsOf` / `Exchange.onReports` satisfy it as they are. */
export interface ReportSource {
  /** Reports of `account` with seq >= fromSeq, ascending, at most `limit` (committed reports only). */
  reportsOf(account: string, fromSeq: number, limit: number): Promise<ExecutionReport[]>;
  /** Called after each commit with the reports it made, in seq order per account. Returns an unsubscribe function. */
  onReports(listener: (reports: ExecutionReport[]) => void): () => void;
}

export interface BookLevel {
  priceBps: string;
  size: string;
}

/** A market's full book at `seq`: every market event with a higher seq applies on top of it. */
export interface BookSnapshot {
  marketId: string;
  seq: number;
  at: number;
  bids: BookLevel[];
  asks: BookLevel[];
}

export const MARKET_EVENT_TYPES = ["book:delta", "market:trade", "market:price", "market:state"] as const;
export type MarketEventType = (typeof MARKET_EVENT_TYPES)[number];

/**
 * One market event. `seq` is per market and shared by every type (deltas, trades, price frames), gap-free from 1, so a
 * subscriber knows after a snapshot at seq S that S+1 comes next.
 * - book:delta   data {side: "bid"|"ask", priceBps, size}  (size = the level's new total; "0" removes the level)
 * - market:trade data {tradeId, outcome, priceBps, size, takerSide}
 * - market:price data {outcome, priceBps}  (last price / mid after the event)
 * - market:state data {marketId, state, outcome, previous, nextActionDeadline, entrySeq}  (a lifecycle transition;
 *   docs/resolution.md "Events")
 */
export interface MarketEvent {
  marketId: string;
  seq: number;
  at: number;
  type: MarketEventType;
  data: Record<string, unknown>;
}

/** The market-data side: books and their events (the engine's committed-lane books, later the on-chain projection). */
export interface MarketEventSource {
  /** The book now, or null when the market is unknown. */
  bookSnapshot(marketId: string): Promise<BookSnapshot | null>;
  onMarketEvents(listener: (events: MarketEvent[]) => void): () => void;
}

/** What the hub carries: one event on one topic (`execution:<account>` or `market:<marketId>`), JSON-safe. */
export interface HubEvent {
  topic: string;
  type: string;
  seq: number;
  at: number;
  data: unknown;
}

/** bigint -> decimal string, recursively, so engine objects can be sent as JSON (house rule: money as strings). */
export { toJsonValue as jsonSafe } from "../../../decoder";

export const executionTopic = (account: string) => `execution:${account.toLowerCase()}`;
export const marketTopic = (marketId: string) => `market:${marketId}`;
