/**
 * Per-subscriber ordering, shared by SSE and WebSocket.
 *
 * ExecutionFeed: reports of one account in strict seq order, each exactly once. It subscribes to the live topic
 * first and buffers, then replays from the report reader from the first wanted seq, then drains the buffer; a live
 * report beyond the next expected seq (a gap: a lost bus message, a slow commit) makes it read the gap from the
 * reader before going on. So resume = replay then live, with no gap and no duplicate.
 *
 * MarketFeed: the book snapshot at seq S, then market events S+1, S+2, ...; a gap in the live events sends a fresh
 * snapshot (market events have no history to replay).
 */
import type { EventHub } from "./hub";
import { executionTopic, jsonSafe, marketTopic, type HubEvent } from "./types";
import { ApiError } from "../../platform/errors/api-error";

/** One message to a client; the same object is the SSE `data` and the WebSocket frame. */
export interface StreamMessage {
  type: string;
  /** `execution` or `market:<marketId>`. */
  channel: string;
  seq: number;
  at: number;
  data: unknown;
}

const PAGE = 500;
const GAP_RETRY_MS = 250;

export class ExecutionFeed {
  /** Next seq to send; null until known (live-only start: the first live report sets it). */
  private next: number | null;
  private readonly buffer = new Map<number, HubEvent>();
  private readonly off: () => void;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private needRead: boolean;
  private retry: NodeJS.Timeout | null = null;

  /** `fromSeq` = the first seq wanted (inclusive), or null for live reports only. */
  constructor(
    private readonly hub: EventHub,
    readonly account: string,
    fromSeq: number | null,
    private readonly send: (m: StreamMessage) => void,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.next = fromSeq;
    this.needRead = fromSeq !== null;
    if (fromSeq !== null && !hub.reports)
      throw new ApiError("SERVICE_UNAVAILABLE", "execution report replay is not available on this instance yet; connect without fromSeq");
    this.off = hub.subscribe(executionTopic(account), (e) => {
      if (this.next !== null && e.seq < this.next) return;
      this.buffer.set(e.seq, e);
      this.kick();
    });
    this.kick();
  }

  /** The last seq sent, or null. */
  get lastSent(): number | null {
    return this.next === null ? null : this.next - 1;
  }

  private kick(): void {
    this.chain = this.chain.then(() => this.pump()).catch((err) => this.onError(err));
  }

  private emit(seq: number, at: number, data: unknown): void {
    this.send({ type: "execution:report", channel: "execution", seq, at, data });
    this.next = seq + 1;
  }

  private async pump(): Promise<void> {
    while (!this.closed) {
      if (this.next === null) {
        if (this.buffer.size === 0) return;
        this.next = Math.min(...this.buffer.keys());
      }
      const ready = this.buffer.get(this.next);
      if (ready) {
        this.buffer.delete(ready.seq);
        this.emit(ready.seq, ready.at, ready.data);
        continue;
      }
      if (!this.needRead && this.buffer.size === 0) return;
      if (!this.hub.reports) {
        // No reader on this instance: skip the gap rather than stall (the client repairs it via POST /orderbook/events).
        this.next = Math.min(...this.buffer.keys());
        continue;
      }
      // Replay (start) or gap repair: read from the next expected seq.
      const page = await this.hub.reports!.reportsOf(this.account, this.next, PAGE);
      if (this.closed) return;
      this.needRead = page.length === PAGE;
      let progressed = false;
      for (const r of page) {
        if (r.seq !== this.next) continue;
        this.emit(r.seq, r.at, jsonSafe(r));
        progressed = true;
      }
      for (const seq of this.buffer.keys()) if (seq < this.next) this.buffer.delete(seq);
      if (!progressed && !this.needRead) {
        // The gap is not readable yet (the live event overtook the commit); try again shortly.
        if (this.buffer.size > 0 && !this.retry) {
          this.retry = setTimeout(() => {
            this.retry = null;
            this.kick();
          }, GAP_RETRY_MS);
        }
        return;
      }
    }
  }

  close(): void {
    this.closed = true;
    this.off();
    if (this.retry) clearTimeout(this.retry);
    this.buffer.clear();
  }
}

export class MarketFeed {
  private last: number | null = null;
  private buffer: HubEvent[] = [];
  private readonly off: () => void;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly hub: EventHub,
    readonly marketId: string,
    private readonly send: (m: StreamMessage) => void,
    onError: (err: unknown) => void,
  ) {
    this.off = hub.subscribe(marketTopic(marketId), (e) => {
      if (this.last === null) {
        this.buffer.push(e);
        return;
      }
      if (e.seq <= this.last) return;
      if (e.seq === this.last + 1) {
        this.last = e.seq;
        this.send({ type: e.type, channel: `market:${marketId}`, seq: e.seq, at: e.at, data: e.data });
        return;
      }
      this.last = null;
      this.buffer = [e];
      this.chain = this.chain.then(() => this.snapshot()).catch(onError);
    });
  }

  /** Subscribes, then sends the snapshot. Throws MARKET_NOT_FOUND for an unknown market. */
  static async open(hub: EventHub, marketId: string, send: (m: StreamMessage) => void, onError: (err: unknown) => void = () => {}): Promise<MarketFeed> {
    if (!hub.market) throw new ApiError("SERVICE_UNAVAILABLE", "market data is not connected on this instance yet");
    const feed = new MarketFeed(hub, marketId, send, onError);
    try {
      await feed.snapshot();
    } catch (err) {
      feed.close();
      throw err;
    }
    return feed;
  }

  private async snapshot(): Promise<void> {
    const snap = await this.hub.market!.bookSnapshot(this.marketId);
    if (this.closed) return;
    if (!snap) throw new ApiError("MARKET_NOT_FOUND", `no market ${this.marketId}`, { marketId: this.marketId });
    this.send({ type: "book:snapshot", channel: `market:${this.marketId}`, seq: snap.seq, at: snap.at, data: jsonSafe(snap) });
    this.last = snap.seq;
    const pending = this.buffer.sort((a, b) => a.seq - b.seq);
    this.buffer = [];
    for (const e of pending) {
      if (e.seq <= this.last) continue;
      if (e.seq !== this.last + 1) {
        this.last = null;
        this.buffer = pending.filter((p) => p.seq >= e.seq);
        return this.snapshot();
      }
      this.last = e.seq;
      this.send({ type: e.type, channel: `market:${this.marketId}`, seq: e.seq, at: e.at, data: e.data });
    }
  }

  close(): void {
    this.closed = true;
    this.off();
  }
}
