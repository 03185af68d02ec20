/**
 * The region rule of POST /pm/buy (issue 19): with REGION_COUNTRY_HEADER and REGION_BLOCKED_COUNTRIES set, a call
 * whose trusted country header names a refused country answers 403 SERVICE_UNAVAILABLE_IN_REGION as a problem and
 * changes nothing; another country, or no header, goes on to the purchase (here: its 402 or a later refusal).
 */
import { strict as assert } from "node:assert";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { loadConfig } from "../../config";
import { startTestService, stopTestService, type Json, type TestService } from "../../../test/support/service";

describe("POST /pm/buy: the region rule", () => {
  let t: TestService;
  let buyer: LocalAgent;
  before(async () => {
    t = await startTestService({ REGION_COUNTRY_HEADER: "X-Country", REGION_BLOCKED_COUNTRIES: "kp,IR" });
    buyer = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "region-buyer" });
  });
  after(() => stopTestService(t));

  const buy = async (country?: string) => {
    const headers: Record<string, string> = { "content-type": "application/json", authorization: `Bearer ${buyer.apiKey}`, "idempotency-key": randomUUID() };
    if (country !== undefined) headers["x-country"] = country;
    const res = await fetch(`${t.svc.baseUrl}/pm/buy`, { method: "POST", headers, body: JSON.stringify({ pm: 1000 }) });
    return { status: res.status, type: res.headers.get("content-type"), json: (await res.json()) as Json };
  };
  const state = async () => ({
    journal: t.svc.services.venue.exchange.nextSeq,
    purchases: Number((await t.svc.ctx.db.query<{ n: string }>(`SELECT count(*) AS n FROM pm_purchases`))[0]!.n),
  });

  it("refuses a refused country with 403 SERVICE_UNAVAILABLE_IN_REGION and changes nothing", async () => {
    const before = await state();
    for (const country of ["KP", "ir", " KP "]) {
      const res = await buy(country);
      assert.equal(res.status, 403, JSON.stringify(res.json));
      assert.equal(res.type, "application/problem+json");
      assert.equal(res.json.code, "SERVICE_UNAVAILABLE_IN_REGION");
    }
    assert.deepEqual(await state(), before);
  });

  it("lets another country and a request without the header through to the purchase", async () => {
    for (const country of ["US", undefined]) {
      const res = await buy(country);
      assert.notEqual(res.json.code, "SERVICE_UNAVAILABLE_IN_REGION", `${country}: ${JSON.stringify(res.json)}`);
    }
  });

  it("is off unless both variables are set, and refuses a malformed list at start", () => {
    assert.throws(() => loadConfig({ REGION_BLOCKED_COUNTRIES: "USA" }), /REGION_BLOCKED_COUNTRIES/);
    assert.deepEqual(loadConfig({ REGION_BLOCKED_COUNTRIES: "us,ca" }).REGION_BLOCKED_COUNTRIES, ["US", "CA"]);
    assert.equal(loadConfig({}).REGION_COUNTRY_HEADER, undefined);
  });
});
