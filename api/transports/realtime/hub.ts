/**
 * The event hub: topics `execution:<account>` and `market:<marketId>`, each subscriber a callback. Publishing goes
 * through a bus: in process by default, or Redis pub/sub (REDIS_URL) so every API instance delivers the events that
 * the one instance holding the exchange publishes. Local delivery always comes off the bus, so one instance and
 * several behave the same. The hub also keeps the readers streams replay from (`reports`, `market`).
 */
import type { Redis } from "ioredis";
import { executionTopic, jsonSafe, marketTopic, type HubEvent, type MarketEventSource, type ReportSource } from "./types";
import { ConnectionLimits } from "./connection-limits";

export interface EventBus {
  readonly kind: "memory" | "redis";
  publish(batch: HubEvent[]): Promise<void>;
  /** Sets the one receiver of every batch published by any instance. */
  onBatch(fn: (batch: HubEvent[]) => void): void;
  close(): Promise<void>;
}

export class MemoryBus implements EventBus {
  readonly kind = "memory";
  private fn: (batch: HubEvent[]) => void = () => {};
  async publish(batch: HubEvent[]): Promise<void> {
    this.fn(batch);
  }
  onBatch(fn: (batch: HubEvent[]) => void): void {
    this.fn = fn;
  }
  async close(): Promise<void> {}
}

/** One Redis channel per deployment (prefix); each instance filters topics locally. Order is Redis's publish order. */
export class RedisBus implements EventBus {
  readonly kind = "redis";
  private fn: (batch: HubEvent[]) => void = () => {};
  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly channel: string,
  ) {
    sub.on("message", (ch: string, message: string) => {
      if (ch === this.channel) this.fn(JSON.parse(message) as HubEvent[]);
    });
  }

  static async connect(url: string, prefix = "svc:"): Promise<RedisBus> {
    const { default: IORedis } = await import("ioredis");
    const pub = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
    const sub = new IORedis(url, { lazyConnect: true });
    await Promise.all([pub.connect(), sub.connect()]);
    const channel = `${prefix}events`;
    await sub.subscribe(channel);
    return new RedisBus(pub, sub, channel);
  }

  async publish(batch: HubEvent[]): Promise<void> {
    await this.pub.publish(this.channel, JSON.stringify(batch));
  }
  onBatch(fn: (batch: HubEvent[]) => void): void {
    this.fn = fn;
  }
  async close(): Promise<void> {
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
  }
}

type Listener = (event: HubEvent) => void;

export class EventHub {
  private readonly topics = new Map<string, Set<Listener>>();
  private readonly detachers: (() => void)[] = [];
  /** Replay reader of execution reports (the exchange, or a reader of its table on instances without it). */
  reports: Pick<ReportSource, "reportsOf"> | null = null;
  /** Book snapshots for market subscriptions. */
  market: Pick<MarketEventSource, "bookSnapshot"> | null = null;

  constructor(
    readonly bus: EventBus,
    private readonly onError: (err: unknown) => void = () => {},
    readonly connections = new ConnectionLimits(Number.MAX_SAFE_INTEGER),
  ) {
    bus.onBatch((batch) => this.deliver(batch));
  }

  static async create(opts: { redisUrl?: string; prefix?: string; onError?: (err: unknown) => void; maxStreamsPerAgent?: number }): Promise<EventHub> {
    return new EventHub(
      opts.redisUrl ? await RedisBus.connect(opts.redisUrl, opts.prefix) : new MemoryBus(),
      opts.onError,
      new ConnectionLimits(opts.maxStreamsPerAgent ?? Number.MAX_SAFE_INTEGER),
    );
  }

  subscribe(topic: string, listener: Listener): () => void {
    let set = this.topics.get(topic);
    if (!set) this.topics.set(topic, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.topics.get(topic) === set) this.topics.delete(topic);
    };
  }

  /** Number of live subscriptions (metrics, tests). */
  get subscriberCount(): number {
    let n = 0;
    for (const s of this.topics.values()) n += s.size;
    return n;
  }

  async publish(batch: HubEvent[]): Promise<void> {
    if (batch.length > 0) await this.bus.publish(batch);
  }

  /**
   * Publishes every report the source commits and replays from it. `live: false` only reads (an instance that does not
   * run the exchange but reads the shared report table; the live events reach it over Redis).
   */
  attachReports(source: ReportSource, opts: { live?: boolean } = {}): () => void {
    this.reports = source;
    if (opts.live === false) return () => {};
    const off = source.onReports((reports) => {
      const batch = reports.map((r) => lazyEvent(executionTopic(r.account), "execution:report", r.seq, r.at, r));
      this.publish(batch).catch(this.onError);
    });
    this.detachers.push(off);
    return off;
  }

  attachMarketEvents(source: MarketEventSource, opts: { live?: boolean } = {}): () => void {
    this.market = source;
    if (opts.live === false) return () => {};
    const off = source.onMarketEvents((events) => {
      const batch = events.map((e) => lazyEvent(marketTopic(e.marketId), e.type, e.seq, e.at, { marketId: e.marketId, ...e.data }));
      this.publish(batch).catch(this.onError);
    });
    this.detachers.push(off);
    return off;
  }

  private deliver(batch: HubEvent[]): void {
    for (const event of batch) {
      const set = this.topics.get(event.topic);
      if (!set) continue;
      for (const fn of [...set]) {
        try {
          fn(event);
        } catch (err) {
          this.onError(err);
        }
      }
    }
  }

  async close(): Promise<void> {
    for (const off of this.detachers.splice(0)) off();
    this.topics.clear();
    await this.bus.close();
  }
}

/**
 * An event whose JSON-safe `data` (bigints as strings) is made when first read: by a subscriber, or by the bus that
 * carries it to other instances (JSON.stringify reads the getter). Most of a busy venue's reports reach no subscriber
 * of this instance, and the copy was a few percent of an order's cost.
 */
function lazyEvent(topic: string, type: string, seq: number, at: number, raw: unknown): HubEvent {
  let data: unknown;
  return {
    topic,
    type,
    seq,
    at,
    get data() {
      if (data === undefined) data = jsonSafe(raw);
      return data;
    },
  };
}
