/**
 * A read's public record joins a commit tick after its answer left (./group-commit.ts `recordInTick`): the read never
 * waits for the database, and the record's reader (GET /agents/{agentId}/calls) waits for the records of the calls
 * answered before it. The commit queue is held here by an open unit at its head, as a trading call in progress holds it.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { CommitUnit, groupCommitterOf } from "../../../../relayer/db/group-commit";
import { createLocalAgent } from "../../../domain/auth/local-agents";
import { apiClient, startTestService, stopTestService, type TestService } from "../../../../test/support/service";
import { CALL_RECORDS_SINK } from "./group-commit";

/** Rejects when `p` has not settled within `ms`: a hang fails the test instead of stalling the run. */
const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms).unref())]);

describe("a read's call record", () => {
  let t: TestService;
  let agentId: string;
  let key: string;
  before(async () => {
    t = await startTestService();
    const agent = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "reader" });
    agentId = agent.agentId;
    key = agent.apiKey;
  });
  after(async () => {
    await stopTestService(t);
  });
  /** A row of the public record, for the unit that holds the queue. */
  const heldRow = () =>
    JSON.stringify({
      agent_id: agentId,
      operation: "held",
      method: "POST",
      path: "/held",
      surface: "rest",
      status: 200,
      idempotency_key: null,
      body_hash: null,
      at: t.clock.now(),
    });

  it("is not waited for by the read; the public record waits for it and then lists it", async () => {
    const call = apiClient(t, key);
    const committer = groupCommitterOf(t.svc.ctx.db);
    assert.ok(committer);
    // An open unit at the head of the queue: no tick may write what queues behind it until it is sealed.
    const head = new CommitUnit();
    head.add(committer, CALL_RECORDS_SINK, heldRow());
    const me = await within(call("GET", "/me"), 10_000, "GET /me behind an open commit unit");
    assert.equal(me.status, 200);

    let listed = false;
    const listing = call("GET", `/agents/${agentId}/calls?limit=10`).then((r) => {
      listed = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(listed, false, "the record's reader waits for the records queued before it");
    await head.seal();
    const page = await within(listing, 10_000, "the call listing once the head unit committed");
    assert.equal(page.status, 200);
    const operations = (page.json.calls as { operation: string }[]).map((c) => c.operation);
    assert.deepEqual(operations.slice(0, 2), ["getMe", "held"], "the read's record is stored, after the unit that queued first");
  });

  it("is stored when the service stops, even behind a unit still open at the stop", async () => {
    const count = async () =>
      Number((await t.svc.ctx.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM api_call_records WHERE agent_id = $1`, [agentId]))[0]!.n);
    const committer = groupCommitterOf(t.svc.ctx.db)!;
    await committer.sealedSettled(); // the record of the previous test's listing, answered before it was stored
    const before = await count();
    const head = new CommitUnit();
    head.add(committer, CALL_RECORDS_SINK, heldRow());
    assert.equal((await apiClient(t, key)("GET", "/me")).status, 200);
    assert.equal(await count(), before, "nothing queued behind the open unit is written yet");
    const stopping = stopTestService(t, { keepData: true });
    void head.seal();
    await within(stopping, 10_000, "the stop");
    t = await startTestService(t.env, { dir: t.dir, schema: t.schema, clock: t.clock });
    assert.equal(await count(), before + 2, "the held unit's row and the read's record");
  });
});
