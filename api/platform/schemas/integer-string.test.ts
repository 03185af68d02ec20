/**
 * Integer strings at the edge (security review, finding "size 1e6 answers 500"): the shared schema refuses exponents,
 * signs, hex and oversize values as 400 INVALID_PAYLOAD over real HTTP, and one rule bounds share counts on both
 * trade lanes (at most 10^18, the engine's MAX_ORDER_SIZE) before any lane sees them.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createLocalAgent } from "../../domain/auth/local-agents";
import { apiClient, startTestService, stopTestService, type CallResult, type Json, type TestService } from "../../../test/support/service";
import { integerString } from "./integer-string";

const invalid = (r: CallResult, field: RegExp) => {
  assert.equal(r.status, 400, JSON.stringify(r.json));
  assert.equal(r.json.code, "INVALID_PAYLOAD");
  assert.match(String(r.json.field), field, JSON.stringify(r.json));
  assert.match(String(r.headers.get("content-type")), /application\/problem\+json/);
};

describe("integerString", () => {
  it("parses plain digits and refuses every other spelling without throwing", () => {
    const s = integerString({ min: 1n, max: 10n ** 18n, multipleOf: 10_000n, maxDigits: 19 });
    assert.equal(s.parse("10000"), "10000");
    for (const bad of [
      "1e6",
      "0x10",
      "-10000",
      "+10000",
      "10000.0",
      " 10000",
      "",
      "1".repeat(400),
      "00010000",
      "10001",
      "0",
      (10n ** 18n + 10_000n).toString(),
    ]) {
      const r = s.safeParse(bad);
      assert.equal(r.success, false, bad);
    }
    for (const bad of [1e6, null, {}, [], true]) assert.equal(s.safeParse(bad).success, false, String(bad));
  });
});

describe("integer strings over HTTP (place-order, trade quote)", () => {
  let t: TestService;
  let call: ReturnType<typeof apiClient>;
  let book: Json;
  let lmsr: Json;

  before(async () => {
    t = await startTestService();
    const agent = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "int-strings" });
    call = apiClient(t, agent.apiKey);
    book = ((await call("GET", "/discover/markets?pricingModel=ORDERBOOK&pageSize=100")).json.markets as Json[])[0]!;
    lmsr = ((await call("GET", "/discover/markets?pricingModel=automated&pageSize=100")).json.markets as Json[])[0]!;
    assert.ok(book && lmsr, "demo markets of both models");
  });
  after(async () => stopTestService(t));

  it("place-order: size and priceBps in any spelling but digits answer 400 naming the field, never 500", async () => {
    for (const size of ["1e6", "0x2710", "-10000", "1e400", "10000.5"]) {
      invalid(await call("POST", "/orderbook/place-order", { market: book.address, outcome: 0, side: "buy", priceBps: "4500", size }), /size/);
    }
    for (const priceBps of ["4.5e3", "0x10", "0", "10000"]) {
      invalid(await call("POST", "/orderbook/place-order", { market: book.address, outcome: 0, side: "buy", priceBps, size: "1000000" }), /priceBps/);
    }
  });

  it("trade quote: shares above 10^18 are one INVALID_PAYLOAD on both pricing models; exponents too", async () => {
    for (const m of [lmsr, book]) {
      for (const shares of [(10n ** 18n + 1n).toString(), "1".repeat(31), "1e6"]) {
        invalid(await call("POST", "/trade/quote", { market: m.address, outcome: 0, side: "buy", shares }), /shares/);
      }
    }
    const r = await call("POST", "/trade/quote", { market: lmsr.address, outcome: 0, side: "buy", shares: "1000000" });
    assert.equal(r.status, 200, JSON.stringify(r.json));
  });
});
