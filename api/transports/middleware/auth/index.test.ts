import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { openTestDatabase } from "../../../../test/support/db";
import { serveMiddleware, type ServedApp } from "../../../../test/support/middleware";
import { manualClock } from "../../../../relayer/clock";
import type { Database } from "../../../../relayer/db/client";
import { createLocalAgent, type LocalAgent } from "../../../domain/auth/local-agents";
import { getMe } from "../../../operations/identity/get-me";
import { placeOrder } from "../../../operations/orderbook/place-order";
import { getServerTime } from "../../../operations/system/get-server-time";
import { auth } from "./index";

describe("auth middleware", () => {
  const clock = manualClock(1_800_000_000_000);
  let db: Database;
  let s: ServedApp;
  let reader: LocalAgent;
  let trader: LocalAgent;
  before(async () => {
    db = await openTestDatabase();
    reader = await createLocalAgent(db, clock, { name: "auth-reader", tier: "read-only" });
    trader = await createLocalAgent(db, clock, { name: "auth-trader", tier: "execute" });
    s = await serveMiddleware((app) => {
      const who = (c: { var: { principal: { agentId: string } | null } }) => ({ agentId: c.var.principal?.agentId ?? null });
      app.get("/public", auth(getServerTime, { db, clock }), (c) => c.json(who(c)));
      app.get("/read", auth(getMe, { db, clock }), (c) => c.json(who(c)));
      app.post("/trade", auth(placeOrder, { db, clock }), (c) => c.json(who(c)));
    });
  });
  after(async () => {
    await s.close();
    await db.close();
  });

  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const code = async (res: Response) => ((await res.json()) as { code: string }).code;

  it("refuses to mount on an operation without a permission", () => {
    assert.throws(() => auth({ ...getMe, permission: undefined as never }, { db, clock }), /has no permission/);
  });

  it("lets a public operation through with or without a key, naming the caller when the key is valid", async () => {
    assert.deepEqual(await (await s.call("/public")).json(), { agentId: null });
    assert.deepEqual(await (await s.call("/public", { headers: bearer(reader.apiKey) })).json(), { agentId: reader.agentId });
  });

  it("answers 401 AUTH_REQUIRED with a challenge when a key is needed and missing or unknown", async () => {
    const missing = await s.call("/read");
    assert.equal(missing.status, 401);
    assert.ok(missing.headers.get("www-authenticate"));
    assert.equal(await code(missing), "AUTH_REQUIRED");
    assert.equal(await code(await s.call("/read", { headers: bearer("svc_not_a_key") })), "AUTH_REQUIRED");
  });

  it("takes the key from Authorization or X-API-Key and sets the principal", async () => {
    assert.deepEqual(await (await s.call("/read", { headers: bearer(reader.apiKey) })).json(), { agentId: reader.agentId });
    assert.deepEqual(await (await s.call("/read", { headers: { "x-api-key": reader.apiKey } })).json(), { agentId: reader.agentId });
  });

  it("answers 403 FORBIDDEN when the key's tier is short, and lets the execute tier trade", async () => {
    const refused = await s.call("/trade", { method: "POST", headers: bearer(reader.apiKey) });
    assert.equal(refused.status, 403);
    assert.equal(await code(refused), "FORBIDDEN");
    assert.deepEqual(await (await s.call("/trade", { method: "POST", headers: bearer(trader.apiKey) })).json(), { agentId: trader.agentId });
  });
});
