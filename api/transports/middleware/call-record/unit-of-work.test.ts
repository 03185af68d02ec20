import { strict as assert } from "node:assert";
import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import pino from "pino";
import { openTestDatabase } from "../../../../test/support/db";
import type { Database } from "../../../../relayer/db/client";
import { beginIdempotent } from "../../../platform/idempotency/store";
import { persistCallOutcome, type CallRecordRow } from "./unit-of-work";

const T0 = 1_800_000_000_000;

describe("the post-response unit of work", () => {
  let db: Database;
  const lines: { msg: string }[] = [];
  const log = pino(
    { level: "error" },
    new Writable({
      write: (chunk, _enc, done) => {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  const row = (over: Partial<CallRecordRow> = {}): CallRecordRow => ({
    agentId: randomUUID(),
    operation: "placeOrder",
    method: "POST",
    path: "/api/agent/v1/orders",
    surface: "rest",
    status: 200,
    idempotencyKey: "k",
    bodyHash: "h",
    at: T0,
    ...over,
  });
  const recordsOf = (agentId: string) =>
    db.query<{ status: number; idempotency_key: string | null }>(`SELECT status, idempotency_key FROM api_call_records WHERE agent_id = $1`, [agentId]);
  const claimOf = async (owner: string) =>
    (
      await db.query<{ state: string; status: number | null; body: string | null }>(`SELECT state, status, body FROM api_idempotency WHERE owner = $1`, [owner])
    ).map((r) => ({
      state: r.state,
      status: r.status === null ? null : Number(r.status),
      body: r.body,
    }));

  it("writes the record and the completed claim together; the claim then replays", async () => {
    const record = row();
    const owner = `agent:${record.agentId}`;
    assert.equal(await beginIdempotent(db, owner, "k", "placeOrder", "h", T0), null);
    lines.length = 0;
    await persistCallOutcome(
      db,
      { record, idempotency: { kind: "complete", owner, key: "k", response: { status: 200, headers: { "x-a": "1" }, body: "{}" } } },
      log,
    );
    assert.deepEqual(
      (await recordsOf(record.agentId)).map((r) => [Number(r.status), r.idempotency_key]),
      [[200, "k"]],
    );
    assert.deepEqual(await claimOf(owner), [{ state: "done", status: 200, body: "{}" }]);
    assert.deepEqual(await beginIdempotent(db, owner, "k", "placeOrder", "h", T0 + 1), { status: 200, headers: { "x-a": "1" }, body: "{}" });
    assert.deepEqual(lines, [], "one statement, no fallback");
  });

  it("forgets the claim of a retryable answer and records the call", async () => {
    const record = row({ status: 503 });
    const owner = `agent:${record.agentId}`;
    await beginIdempotent(db, owner, "k", "placeOrder", "h", T0);
    await persistCallOutcome(db, { record, idempotency: { kind: "forget", owner, key: "k" } }, log);
    assert.deepEqual(await claimOf(owner), []);
    assert.deepEqual(
      (await recordsOf(record.agentId)).map((r) => Number(r.status)),
      [503],
    );
    assert.equal(await beginIdempotent(db, owner, "k", "placeOrder", "h", T0 + 1), null, "a retry runs again");
  });

  it("writes a keyless call's claim alone, and a record without a claim alone", async () => {
    const owner = `ip:${randomUUID()}`;
    await beginIdempotent(db, owner, "k", "register", "h", T0);
    await persistCallOutcome(db, { record: null, idempotency: { kind: "complete", owner, key: "k", response: { status: 201, headers: {}, body: "{}" } } }, log);
    assert.deepEqual(await claimOf(owner), [{ state: "done", status: 201, body: "{}" }]);
    const record = row({ idempotencyKey: null });
    await persistCallOutcome(db, { record, idempotency: null }, log);
    assert.deepEqual(
      (await recordsOf(record.agentId)).map((r) => [Number(r.status), r.idempotency_key]),
      [[200, null]],
    );
  });

  it("still completes the claim when the record cannot be written, and never fails the call for it", async () => {
    const owner = `agent:${randomUUID()}`;
    await beginIdempotent(db, owner, "k", "placeOrder", "h", T0);
    lines.length = 0;
    // agent_id is a uuid column: this record is refused, in the combined statement and alone.
    await persistCallOutcome(
      db,
      { record: row({ agentId: "not-a-uuid" }), idempotency: { kind: "complete", owner, key: "k", response: { status: 200, headers: {}, body: "{}" } } },
      log,
    );
    assert.deepEqual(await claimOf(owner), [{ state: "done", status: 200, body: "{}" }]);
    assert.deepEqual(
      lines.map((l) => l.msg),
      ["call record with idempotent outcome not written; writing them apart", "call record not written"],
    );
  });

  it("fails the call when the claim cannot be written, after recording it with status 500", async () => {
    const record = row();
    const owner = `agent:${record.agentId}`;
    await beginIdempotent(db, owner, "k", "placeOrder", "h", T0);
    // status is an integer column: this completion is refused, in the combined statement and alone.
    const outcome = { record, idempotency: { kind: "complete" as const, owner, key: "k", response: { status: 2 ** 40, headers: {}, body: "{}" } } };
    await assert.rejects(persistCallOutcome(db, outcome, log));
    assert.deepEqual(
      (await recordsOf(record.agentId)).map((r) => Number(r.status)),
      [500],
    );
    assert.deepEqual(await claimOf(owner), [{ state: "in_flight", status: null, body: null }], "the claim is left in flight, as the failed call left it");
  });
});
