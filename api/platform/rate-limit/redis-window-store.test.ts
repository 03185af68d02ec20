/**
 * Rate windows in Redis (REDIS_URL): the store answers exactly like the in-memory one, and two API instances on one
 * database and one Redis share each key's window, so requests split across them meet one ceiling. Like
 * api/transports/realtime/multi-instance.test.ts this runs against the local Redis and Postgres (house rules) and fails if they
 * are not there.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { testConfig } from "../../../test/support/service";
import { startService, type RunningService } from "../../service";
import { manualClock } from "../../../relayer/clock";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { MemoryWindowStore, RedisWindowStore } from "./window-store";
import { dropServiceSchema } from "../../../test/support/db";

const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** Deletes every key under `prefix` (the windows a test run made). */
async function dropPrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

async function keysUnder(prefix: string): Promise<string[]> {
  const redis = new Redis(REDIS_URL);
  try {
    return await redis.keys(`${prefix}*`);
  } finally {
    redis.disconnect();
  }
}

describe("RedisWindowStore", () => {
  const prefix = `t_rl_${randomUUID().slice(0, 8)}:`;
  let store: RedisWindowStore;
  before(async () => {
    store = await RedisWindowStore.connect(REDIS_URL, prefix);
  });
  after(async () => {
    await store.close();
    await dropPrefix(prefix);
    assert.deepEqual(await keysUnder(prefix), [], "the test leaves no keys behind");
  });

  it("gives the same answers as MemoryWindowStore over a sequence (equal instants, ageing out, a lowered ceiling, several buckets)", async () => {
    const memory = new MemoryWindowStore();
    let now = 1_800_000_000_000;
    let refusals = 0;
    for (let i = 0; i < 600; i++) {
      now += (i * 7919) % 37; // 0..36 ms steps: many equal instants, windows of 1 s fill and drain
      const bucket = `b${i % 3}`;
      const limit = i < 400 ? 20 : 5;
      const [m, r] = [await memory.charge(bucket, limit, now, 1_000), await store.charge(bucket, limit, now, 1_000)];
      assert.deepEqual(r, m, `step ${i} (${bucket} at ${now})`);
      if (!r.allowed) refusals++;
    }
    // The sequence must have exercised both answers, or the comparison proves little.
    assert.ok(refusals > 50 && refusals < 500, `refusals: ${refusals}`);
    assert.deepEqual((await keysUnder(prefix)).sort(), [`${prefix}b0`, `${prefix}b1`, `${prefix}b2`], "the buckets live under the prefix");
    await memory.close();
  });
});

describe("two API instances on one database and one REDIS_URL share each key's window", () => {
  const schema = `t_rlmi_${randomUUID().slice(0, 8)}`;
  const prefix = `${schema}:`;
  // Not a whole second, so RateLimit-Reset (rounded up) and Retry-After (now rounded down) are both exercised.
  const T0 = 1_800_000_000_250;
  const clock = manualClock(T0);
  const dirs: string[] = [];
  let a: RunningService;
  let b: RunningService;
  let agent: LocalAgent;

  const start = async () => {
    const dir = mkdtempSync(join(tmpdir(), "pm-rlmi-"));
    dirs.push(dir);
    const env = { DATABASE_URL, DATABASE_SCHEMA: schema, REDIS_URL, RATE_LIMIT_READ_PER_MINUTE: "4" };
    return startService(testConfig(dir, env), { clock, redisPrefix: prefix });
  };
  const read = (svc: RunningService) => fetch(`${svc.baseUrl}/webhooks`, { headers: { authorization: `Bearer ${agent.apiKey}` } });
  const windowOf = (res: Response) => ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((h) => res.headers.get(h));

  before(async () => {
    a = await start();
    b = await start();
    agent = await createLocalAgent(a.ctx.db, clock, { name: "rl-shared" });
  });
  after(async () => {
    await a.close();
    await b.close();
    await dropServiceSchema(schema, DATABASE_URL);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await dropPrefix(prefix);
  });

  it("requests alternating between A and B count against one window and meet 429 RATE_LIMITED at the ceiling", async () => {
    assert.equal(a.services.windows.kind, "redis");
    assert.equal(b.services.windows.kind, "redis");
    const reset = String(Math.ceil((T0 + 60_000) / 1000)); // the first request is the oldest in the window
    const seen: (string | null)[][] = [];
    for (const svc of [a, b, a, b]) {
      const res = await read(svc);
      assert.equal(res.status, 200);
      seen.push(windowOf(res));
      clock.advance(1_000);
    }
    assert.deepEqual(seen, [
      ["4", "3", reset],
      ["4", "2", reset],
      ["4", "1", reset],
      ["4", "0", reset],
    ]);

    clock.set(T0 + 10_000);
    for (const svc of [a, b]) {
      const res = await read(svc);
      assert.equal(res.status, 429);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      assert.deepEqual(windowOf(res), ["4", "0", reset]);
      // Retry-After = max(1, reset - now) in seconds: the wait for one unit.
      const retryAfter = Number(reset) - Math.floor((T0 + 10_000) / 1000);
      assert.equal(retryAfter, 51);
      assert.equal(res.headers.get("retry-after"), String(retryAfter));
      const p = (await res.json()) as Record<string, unknown>;
      assert.equal(p.code, "RATE_LIMITED");
      assert.equal(p.retryAfter, retryAfter);
    }

    // Once the first request ages out, one unit comes back, on either instance; the oldest is now the second one.
    clock.set(T0 + 60_000);
    const again = await read(b);
    assert.equal(again.status, 200);
    assert.deepEqual(windowOf(again), ["4", "0", String(Math.ceil((T0 + 61_000) / 1000))]);
    clock.set(T0 + 60_999); // the oldest (T0 + 1 s) leaves at T0 + 61 s, under one second from now
    const refused = await read(a);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "1");
  });
});
