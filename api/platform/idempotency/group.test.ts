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
