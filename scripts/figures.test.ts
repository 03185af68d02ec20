/** The figure lines CI prints at its end: which lines count, and the digest of the headline figures. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { digest, figureOf, summary } from "./figures";

describe("figures", () => {
  it("takes JSON objects naming a bench, fault or crash, as printed or as a TAP comment, and nothing else", () => {
    assert.deepEqual(figureOf('{"bench":"fuzz","cases":3}'), { bench: "fuzz", cases: 3 });
    assert.deepEqual(figureOf('# {"fault":"chain-outage","ordersLost":0}'), { fault: "chain-outage", ordersLost: 0 });
    assert.deepEqual(figureOf('  {"crash":"service-sigkill"}  '), { crash: "service-sigkill" });
    for (const line of ['{"fuzz":"placeOrder","rest":10}', '{"bench":1}', "[1,2]", '{"bench":"x"', "ok 1 - a test", "", "# tests 3"]) {
      assert.equal(figureOf(line), null, line);
    }
  });

  it("sums the headline figures over the runs that report them, and says what did not run", () => {
    const figures = [
      { bench: "fuzz", cases: 100, fiveXx: 0, defects: 0 },
      { bench: "auth-matrix", cells: 40, asExpected: 40 },
      { bench: "stop-start", restarts: 20 },
      { fault: "chain-outage", ordersLost: 0, ordersDoubled: 0 },
      { crash: "service-sigkill", ordersLost: 1, ordersDoubled: 2 },
      { bench: "soak", seconds: 117, errors: 0, rssMbPerMin: -5.92, rootOk: true },
    ];
    assert.equal(
      digest(figures),
      "fuzz cases 100 (5xx 0, defects 0) · auth-matrix cells 40 (as expected 40) · restarts survived 20 · orders lost 1, doubled 2 (2 fault runs) · soak 117 s: errors 0, rssMbPerMin -5.92, rootOk true",
    );
    assert.equal(digest([]), "fuzz not run · auth-matrix not run · stop-start not run · no fault run reported orders");
  });

  it("prints the figure lines of a log, then the digest", () => {
    const log = ["TAP version 13", '# {"bench":"stop-start","restarts":20}', '{"fuzz":"op","rest":1}', "ok 1 - x"].join("\n");
    assert.equal(
      summary(log),
      'figures (1):\n{"bench":"stop-start","restarts":20}\ndigest: fuzz not run · auth-matrix not run · restarts survived 20 · no fault run reported orders',
    );
  });
});
