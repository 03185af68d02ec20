/**
 * Sliding-log rate windows (spec "Limits"): a bucket holds the instants of its charged requests; one is admitted while
 * fewer than `limit` lie inside the last `windowMs`. Quota frees one unit at a time as each request ages out, so
 * `resetAt` is the instant the oldest charged request leaves the window. Two stores: in memory (default) and Redis
 * (REDIS_URL), which every API instance shares. Time always comes in as `now` from the service clock.
 */
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";

export interface ChargeResult {
  allowed: boolean;
  limit: number;
  /** Units left after this request. */
  remaining: number;
  /** Epoch ms when the oldest charged request of the window ages out. */
  resetAt: number;
}

export interface WindowStore {
  readonly kind: "memory" | "redis";
  charge(bucket: string, limit: number, now: number, windowMs: number): Promise<ChargeResult>;
  close(): Promise<void>;
}

/**
 * One bucket's log: charged instants from `head` on. While they arrive in clock order (the usual case) the instants
 * that aged out are a prefix, dropped by moving `head` (O(1) amortised, not a copy of the whole log per request);
 * once an instant arrives out of order (an injected clock moved back) the bucket is filtered as a whole instead.
 */
interface BucketLog {
  times: number[];
  head: number;
  ordered: boolean;
}

/** One process's windows. Buckets are pruned on use and swept when many go idle. */
export class MemoryWindowStore implements WindowStore {
  readonly kind = "memory";
  private readonly logs = new Map<string, BucketLog>();

  async charge(bucket: string, limit: number, now: number, windowMs: number): Promise<ChargeResult> {
    let log = this.logs.get(bucket);
    if (!log) {
      log = { times: [], head: 0, ordered: true };
      this.logs.set(bucket, log);
    }
    const cutoff = now - windowMs;
    if (log.ordered) {
      while (log.head < log.times.length && log.times[log.head] <= cutoff) log.head++;
      if (log.head > 1024 && log.head * 2 > log.times.length) {
        log.times = log.times.slice(log.head);
        log.head = 0;
      }
    } else {
      log.times = log.times.slice(log.head).filter((t) => t > cutoff);
      log.head = 0;
    }
    const count = log.times.length - log.head;
    const allowed = count < limit;
    if (allowed) {
      if (count > 0 && now < log.times[log.times.length - 1]) log.ordered = false;
      log.times.push(now);
    }
    const size = log.times.length - log.head;
    if (this.logs.size > 50_000) this.sweep(now, windowMs);
    return { allowed, limit, remaining: Math.max(0, limit - size), resetAt: (size > 0 ? log.times[log.head] : now) + windowMs };
  }

  private sweep(now: number, windowMs: number): void {
    for (const [k, log] of this.logs) if ((log.times[log.times.length - 1] ?? 0) <= now - windowMs) this.logs.delete(k);
  }

  async close(): Promise<void> {
    this.logs.clear();
  }
}

// One atomic step per charge: prune, count, admit, read the oldest. Scores are the caller's clock in ms.
const CHARGE_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {allowed, count, oldest[2] or tostring(now)}
`;

/** Windows in Redis sorted sets, shared by every instance that uses the same Redis and prefix. */
export class RedisWindowStore implements WindowStore {
  readonly kind = "redis";
  constructor(
    private readonly redis: Redis,
    private readonly prefix = "svc:rl:",
  ) {}

  static async connect(url: string, prefix?: string): Promise<RedisWindowStore> {
    const { default: IORedis } = await import("ioredis");
    const redis = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true });
    await redis.connect();
    return new RedisWindowStore(redis, prefix);
  }

  async charge(bucket: string, limit: number, now: number, windowMs: number): Promise<ChargeResult> {
    const member = `${now}:${randomBytes(6).toString("hex")}`;
    const [allowed, count, oldest] = (await this.redis.eval(CHARGE_SCRIPT, 1, this.prefix + bucket, now, windowMs, limit, member)) as [number, number, string];
    return { allowed: allowed === 1, limit, remaining: Math.max(0, limit - count), resetAt: Number(oldest) + windowMs };
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
