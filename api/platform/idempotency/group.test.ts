import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { openTestDatabase } from "../../../test/support/db";
import type { Database } from "../../../relayer/db/client";
import { completedRow, IDEMPOTENCY_SINK, lookupIdempotent, markKeyUsed } from "./group";
import { beginIdempotent, IDEMPOTENCY_WINDOW_MS } from "./store";

const T0 = 1_800_000_000_000;
const answer = { status: 200, headers: { "content-type": "application/json" }, body: '{"ok":true}' };

/** Stores a completed record the way a commit tick does. */
async function store(db: Database, owner: string, key: string, now: number): Promise<void> {
  const row = completedRow({ owner, key, operation: "placeOrder", requestHash: "h1", response: answer, now });
  await db.query(IDEMPOTENCY_SINK.sql, [`[${row}]`]);
}

// The lookup skips its read for a key this process never saw and that was not stored when it first looked (UsedKeys).
// The answers must be the same on both databases (DATABASE_URL picks the database).
describe("group-committed idempotency lookups", () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
    // Stored before the first lookup of this handle: as after a restart.
    await store(db, "agent:a", "before-start", T0);
  });
  after(async () => {
    await db.close();
  });

  it("finds a record stored before the first lookup, and no record for a key never used", async () => {
    const found = await lookupIdempotent(db, "agent:a", "before-start", T0 + 1);
    assert.equal(found?.state, "done");
    assert.deepEqual(found?.response, answer);
    assert.equal(await lookupIdempotent(db, "agent:a", "never", T0 + 1), null);
    assert.equal(await lookupIdempotent(db, "agent:b", "before-start", T0 + 1), null, "keys are per owner");
  });

  it("finds a key stored after a lookup saw it absent, and another operation's claim on a key", async () => {
    assert.equal(await lookupIdempotent(db, "agent:a", "k2", T0 + 2), null);
    await store(db, "agent:a", "k2", T0 + 2);
    assert.deepEqual((await lookupIdempotent(db, "agent:a", "k2", T0 + 3))?.response, answer);
    // A non-group write claims its key (marked as the idempotency middleware marks it); a trading write with that key sees the claim.
    markKeyUsed(db, "agent:a", "k3", T0 + 4);
    assert.equal(await beginIdempotent(db, "agent:a", "k3", "createWebhook", "h9", T0 + 4), null);
    const claim = await lookupIdempotent(db, "agent:a", "k3", T0 + 5);
    assert.deepEqual([claim?.operation, claim?.state, claim?.response], ["createWebhook", "in_flight", null]);
  });

  it("an expired record is absent, and keys are still found after a window and across the next", async () => {
    assert.equal(await lookupIdempotent(db, "agent:a", "before-start", T0 + IDEMPOTENCY_WINDOW_MS), null);
    const later = T0 + IDEMPOTENCY_WINDOW_MS + 10;
    assert.equal(await lookupIdempotent(db, "agent:a", "k4", later), null);
    await store(db, "agent:a", "k4", later);
    assert.equal((await lookupIdempotent(db, "agent:a", "k4", later + IDEMPOTENCY_WINDOW_MS - 1))?.state, "done");
    assert.equal(await lookupIdempotent(db, "agent:a", "k4", later + IDEMPOTENCY_WINDOW_MS), null);
  });
});

describe("the used-keys filter", () => {
  it("reads the stored keys in pages, then skips the read for a new key and still finds every stored one", async () => {
    const raw = await openTestDatabase();
    let lookups = 0;
    // Counts the batched lookups; everything else passes through.
    const db = new Proxy(raw, {
      get(target, prop, receiver) {
        if (prop === "query")
          return (text: string, params?: unknown[]) => {
            if (text.includes("JOIN api_idempotency")) lookups++;
            return target.query(text, params as never);
          };
        const v = Reflect.get(target, prop, receiver);
        return typeof v === "function" ? v.bind(target) : v;
      },
    }) as Database;
    try {
      const n = 25_000; // two and a half pages of the load
      const rows = Array.from({ length: n }, (_, i) =>
        completedRow({ owner: `agent:${i % 7}`, key: `k-${i}`, operation: "placeOrder", requestHash: "h1", response: answer, now: T0 }),
      );
      await raw.query(IDEMPOTENCY_SINK.sql, [`[${rows.join(",")}]`]);

      // Until the load is in, a new key's lookup reads; once it is, it does not.
      let before = lookups;
      let probes = 0;
      for (; probes < 200; probes++) {
        before = lookups;
        assert.equal(await lookupIdempotent(db, "agent:0", `new-${probes}`, T0 + 1), null);
        if (lookups === before) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(probes < 200, "the load never finished");
      assert.equal(lookups, before, "a key never stored is answered without a read");
      // Keys of every page, the last included, are still found (a key missing from the filter would be answered null).
      for (const i of [0, 9_999, 10_000, 19_999, 20_000, n - 1]) {
        assert.equal((await lookupIdempotent(db, `agent:${i % 7}`, `k-${i}`, T0 + 2))?.state, "done", `k-${i}`);
      }
    } finally {
      await raw.close();
    }
  });
});
