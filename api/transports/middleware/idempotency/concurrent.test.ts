/**
 * Two identical writes with the same Idempotency-Key at the same time, over real HTTP: exactly one runs; the other
 * answers 409 IDEMPOTENCY_REQUEST_IN_FLIGHT while the first is still running, and the replay once it has finished.
 * The test operation's handler waits on a promise the test controls, so "still running" involves no timing.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { z } from "zod";
import { createApp } from "../../../app";
import { createLocalAgent, type LocalAgent } from "../../../domain/auth/local-agents";
import { Registry } from "../../../registry/registry";
import { defineOperation } from "../../../registry/types";
import { startTestService, stopTestService, type TestService } from "../../../../test/support/service";

type Json = Record<string, unknown>;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

let runs = 0;
let entered = deferred();
let gate = deferred();

const slowWrite = defineOperation({
  id: "slowWrite",
  method: "POST",
  path: "/test/slow-write",
  summary: "A write that finishes when the test says so (test operation)",
  category: "test",
  permission: "api-key-read",
  tier: "read-only",
  scopes: [],
  rateClass: "write",
  charged: true,
  idempotency: "required",
  request: { body: z.object({ amount: z.string() }) },
  response: z.object({ amount: z.string(), run: z.number().int() }),
  mcpTool: null,
  async handler(_ctx, { body }) {
    const run = ++runs;
    entered.resolve();
    await gate.promise;
    return { amount: body.amount, run };
  },
});

describe("concurrent duplicates of an idempotent write", () => {
  let t: TestService;
  let server: ServerType;
  let url: string;
  let agent: LocalAgent;

  before(async () => {
    t = await startTestService();
    agent = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "idem-racer" });
    const { app } = createApp(t.svc.ctx, t.svc, new Registry([slowWrite]));
    server = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agent/v1/test/slow-write`;
  });
  after(async () => {
    gate.resolve();
    await new Promise<void>((r) => server.close(() => r()));
    await stopTestService(t);
  });

  const post = (key: string, amount = "10") =>
    fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${agent.apiKey}`, "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify({ amount }),
    });

  it("sent together, one runs and the other answers 409 IDEMPOTENCY_REQUEST_IN_FLIGHT; afterwards the key replays", async () => {
    runs = 0;
    entered = deferred();
    gate = deferred();
    const both = [post("race-1"), post("race-1")];
    await entered.promise;
    // The request that did not claim the key cannot wait on the gate, so it answers first.
    const early = await Promise.race(both);
    assert.equal(early.status, 409);
    assert.equal(early.headers.get("retry-after"), "1");
    const p = (await early.json()) as Json;
    assert.equal(p.code, "IDEMPOTENCY_REQUEST_IN_FLIGHT");
    assert.equal(p.idempotencyKey, "race-1");
    gate.resolve();
    const answers = await Promise.all(both);
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409]);
    const done = answers.find((r) => r.status === 200)!;
    const body = (await done.json()) as Json;
    assert.deepEqual(body, { amount: "10", run: 1 });
    assert.equal(runs, 1, "the handler ran once");

    // The first has finished: the same key and body now replay its answer, still without running.
    const replay = await post("race-1");
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(await replay.json(), body);
    assert.equal(runs, 1);
  });

  it("many at once: exactly one runs, every other one is refused as in flight", async () => {
    runs = 0;
    entered = deferred();
    gate = deferred();
    const all = Array.from({ length: 6 }, () => post("race-2", "7"));
    await entered.promise;
    // Wait for the five refusals (each answers without the gate), then let the one that runs finish.
    const refusals: Response[] = [];
    const pending = new Set(all);
    while (refusals.length < 5) {
      const r = await Promise.race([...pending].map((p) => p.then((res) => ({ p, res }))));
      pending.delete(r.p);
      refusals.push(r.res);
    }
    assert.deepEqual(
      refusals.map((r) => r.status),
      [409, 409, 409, 409, 409],
    );
    for (const r of refusals) assert.equal(((await r.json()) as Json).code, "IDEMPOTENCY_REQUEST_IN_FLIGHT");
    gate.resolve();
    const [last] = await Promise.all(pending);
    assert.equal(last.status, 200);
    assert.deepEqual(await last.json(), { amount: "7", run: 1 });
    assert.equal(runs, 1, "the handler ran once");
  });
});
