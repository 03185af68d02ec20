/** The site's number and time formats: money in bigint arithmetic agrees with viem's formatUnits, cut never rounded. */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import fc from "fast-check";
import { formatUnits } from "viem";
import { bpsText, decimalText, enumLabel, percentText, relativeText, unitsText } from "./format";

describe("site formats", () => {
  it("writes base units as whole units, exactly as formatUnits does once the commas are taken out (any value, any decimals)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }), (v, d) => {
        assert.equal(unitsText(v.toString(), d, d).replace(/,/g, ""), formatUnits(v, d));
      }),
      { numRuns: 500 },
    );
  });

  it("cuts toward zero, groups thousands, and never shows minus zero", () => {
    assert.equal(unitsText("1234567899", 6), "1,234.56");
    assert.equal(unitsText("-1234567899", 6), "-1,234.56");
    assert.equal(unitsText("-4000", 6), "0");
    assert.equal(unitsText("5500000", 6), "5.5");
    assert.equal(decimalText("-0.03841", 4), "-0.0384");
    assert.equal(decimalText("-0.00001", 4), "0");
    assert.equal(decimalText("1000000.10"), "1,000,000.1");
    assert.equal(decimalText("007"), "7");
  });

  it("writes probabilities, basis points, labels and relative times for people", () => {
    assert.equal(percentText(0.4535), "45.4%");
    assert.equal(percentText(null), "–");
    assert.equal(bpsText("4500"), "45%");
    assert.equal(bpsText("4505"), "45.05%");
    assert.equal(enumLabel("CLOSED_PENDING"), "Closed pending");
    assert.equal(enumLabel("AI"), "AI");
    const now = Date.parse("2027-01-15T08:00:00Z");
    assert.equal(relativeText("2027-01-18T09:00:00Z", now), "in 3 days");
    assert.equal(relativeText("2027-01-15T07:59:00Z", now), "1 minute ago");
    assert.equal(relativeText("2027-01-15T08:00:30Z", now), "just now");
  });
});
