import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { openTestDatabase } from "../../../../test/support/db";
import type { Database } from "../../../../relayer/db/client";
import { abandonIdempotent, beginIdempotent, completeIdempotent, IDEMPOTENCY_WINDOW_MS } from "../../../platform/idempotency/store";

const T0 = 1_800_000_000_000;

describe("idempotency claims", () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it("claims once, refuses in flight, replays when done, refuses a different request, and takes over after 24 h", async () => {
    assert.equal(await beginIdempotent(db, "agent:a", "k1", "placeOrder", "h1", T0), null);
    await assert.rejects(beginIdempotent(db, "agent:a", "k1", "placeOrder", "h1", T0 + 1), /still being processed/);
    await completeIdempotent(db, "agent:a", "k1", { status: 200, headers: { "x-a": "1" }, body: '{"ok":true}' });
    assert.deepEqual(await beginIdempotent(db, "agent:a", "k1", "placeOrder", "h1", T0 + 2), { status: 200, headers: { "x-a": "1" }, body: '{"ok":true}' });
    await assert.rejects(beginIdempotent(db, "agent:a", "k1", "placeOrder", "h2", T0 + 3), /different request/);
    assert.equal(await beginIdempotent(db, "agent:b", "k1", "placeOrder", "h2", T0 + 3), null, "keys are per owner");
    // 24 h on, the same key starts afresh (a new claim, nothing replayed), even with another request.
    assert.equal(await beginIdempotent(db, "agent:a", "k1", "cancelOrder", "h3", T0 + IDEMPOTENCY_WINDOW_MS), null);
    await assert.rejects(beginIdempotent(db, "agent:a", "k1", "cancelOrder", "h3", T0 + IDEMPOTENCY_WINDOW_MS + 1), /still being processed/);
    const [row] = await db.query<{ state: string; status: unknown; body: unknown; expires_at: unknown }>(
      `SELECT state, status, body, expires_at FROM api_idempotency WHERE owner = 'agent:a' AND idem_key = 'k1'`,
    );
    assert.deepEqual([row.state, row.status, row.body, Number(row.expires_at)], ["in_flight", null, null, T0 + 2 * IDEMPOTENCY_WINDOW_MS]);
    await abandonIdempotent(db, "agent:a", "k1");
    assert.equal(
      await beginIdempotent(db, "agent:a", "k1", "cancelOrder", "h3", T0 + IDEMPOTENCY_WINDOW_MS + 2),
      null,
      "an abandoned claim can be claimed again",
    );
  });
});
