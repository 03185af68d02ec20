import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { MemoryWindowStore, type ChargeResult } from "./window-store";

/** The sliding log as the spec states it, recomputed from every instant ever admitted (the reference). */
function reference(): (limit: number, now: number, windowMs: number) => ChargeResult {
  let log: number[] = [];
  return (limit, now, windowMs) => {
    log = log.filter((t) => t > now - windowMs);
    const allowed = log.length < limit;
    if (allowed) log.push(now);
    return { allowed, limit, remaining: Math.max(0, limit - log.length), resetAt: (log[0] ?? now) + windowMs };
  };
}

describe("MemoryWindowStore", () => {
  it("admits while fewer than limit lie in the window and frees one unit as each ages out", async () => {
    const s = new MemoryWindowStore();
    const r = [];
    for (const t of [0, 10, 20, 30]) r.push(await s.charge("b", 3, t, 100));
    assert.deepEqual(
      r.map((x) => [x.allowed, x.remaining, x.resetAt]),
      [
        [true, 2, 100],
        [true, 1, 100],
        [true, 0, 100],
        [false, 0, 100],
      ],
    );
    assert.deepEqual(await s.charge("b", 3, 100, 100), { allowed: true, limit: 3, remaining: 0, resetAt: 110 });
    assert.deepEqual(await s.charge("other", 3, 100, 100), { allowed: true, limit: 3, remaining: 2, resetAt: 200 });
  });

  it("answers exactly like the reference over long runs, in clock order and with a clock that moves back", async () => {
    for (const backwards of [false, true]) {
      const s = new MemoryWindowStore();
      const ref = reference();
      let now = 1_000;
      for (let i = 0; i < 5_000; i++) {
        now += (i * 7919) % 13; // 0..12 ms steps, many equal instants
        if (backwards && i % 997 === 0) now -= 400;
        const limit = i % 3000 < 2000 ? 1_000 : 50;
        assert.deepEqual(await s.charge("k", limit, now, 1_000), ref(limit, now, 1_000), `step ${i}`);
      }
    }
  });
});
