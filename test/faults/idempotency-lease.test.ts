/**
 * A claim left in flight by a call that died with the database (its outcome could not be written) holds its
 * Idempotency-Key only for the in-flight lease, not the 24 h window: a retry inside the lease gets
 * IDEMPOTENCY_REQUEST_IN_FLIGHT, after it the retry takes the claim over and runs; another request on the key is still
 * IDEMPOTENCY_KEY_REUSED.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { beginIdempotent, IDEMPOTENCY_IN_FLIGHT_LEASE_MS } from "../../api/platform/idempotency/store";
import type { Database } from "../../relayer/db/client";
import { openTestDatabase } from "../support/db";

describe("fault: an Idempotency-Key claim orphaned by a database outage", () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it("is taken over by a retry of the same request once the lease ran out", async () => {
    const t0 = 1_800_000_000_000;
    assert.equal(await beginIdempotent(db, "agent:a", "k1", "placeOrder", "h1", t0), null, "first claim");
    // The call died: no outcome was written. A retry inside the lease is told to wait.
    await assert.rejects(beginIdempotent(db, "agent:a", "k1", "placeOrder", "h1", t0 + IDEMPOTENCY_IN_FLIGHT_LEASE_MS - 1), /IDEMPOTENCY_REQUEST_IN_FLIGHT/);
    // Another request on the key is refused, lease or not.
    await assert.rejects(beginIdempotent(db, "agent:a", "k1", "placeOrder", "h2", t0 + IDEMPOTENCY_IN_FLIGHT_LEASE_MS + 1), /IDEMPOTENCY_KEY_REUSED/);
    assert.equal(await beginIdempotent(db, "agent:a", "k1", "placeOrder", "h1", t0 + IDEMPOTENCY_IN_FLIGHT_LEASE_MS), null, "taken over after the lease");
  });
});
