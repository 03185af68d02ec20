import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { serveMiddleware } from "../../../../test/support/middleware";
import { manualClock } from "../../../../relayer/clock";
import { WINDOW_MS } from "../../../platform/rate-limit/limits";
import { MemoryWindowStore } from "../../../platform/rate-limit/window-store";
import { ipLimit } from "./index";

async function served(trustProxy: boolean) {
  const clock = manualClock(1_800_000_000_000);
  const s = await serveMiddleware((app) => {
    app.use(ipLimit({ windows: new MemoryWindowStore(), clock, perMinute: 2, trustProxy }));
    app.get("/x", (c) => c.json({ ip: c.var.ip, remaining: c.var.ipCharge?.remaining ?? null }));
  });
  return { s, clock };
}

describe("ip-limit middleware", () => {
  let direct: Awaited<ReturnType<typeof served>>;
  let proxied: Awaited<ReturnType<typeof served>>;
  before(async () => {
    direct = await served(false);
    proxied = await served(true);
  });
  after(async () => {
    await direct.s.close();
    await proxied.s.close();
  });

  it("checks its options up front", () => {
    assert.throws(() => ipLimit({ windows: new MemoryWindowStore(), clock: manualClock(0), perMinute: 0, trustProxy: false }), /perMinute must be at least 1/);
  });

  it("charges each request to the socket's IP, refuses past the limit with a 429 problem, and lets the window age out", async () => {
    const { s, clock } = direct;
    const first = await s.call("/x", { headers: { "x-forwarded-for": "203.0.113.9" } });
    assert.deepEqual(await first.json(), { ip: "127.0.0.1", remaining: 1 }, "X-Forwarded-For is ignored without TRUST_PROXY");
    assert.deepEqual(await (await s.call("/x")).json(), { ip: "127.0.0.1", remaining: 0 });
    const refused = await s.call("/x");
    assert.equal(refused.status, 429);
    assert.equal(((await refused.json()) as { code: string }).code, "RATE_LIMITED");
    clock.advance(WINDOW_MS + 1);
    assert.equal((await s.call("/x")).status, 200);
  });

  it("behind a trusted proxy, counts the first X-Forwarded-For hop, one window per client", async () => {
    const { s } = proxied;
    const as = (ip: string) => s.call("/x", { headers: { "x-forwarded-for": `${ip}, 10.0.0.1` } });
    assert.equal((await as("198.51.100.1")).status, 200);
    assert.equal((await as("198.51.100.1")).status, 200);
    assert.equal((await as("198.51.100.1")).status, 429);
    const other = await as("198.51.100.2");
    assert.equal(other.status, 200);
    assert.deepEqual(await other.json(), { ip: "198.51.100.2", remaining: 1 });
  });
});
