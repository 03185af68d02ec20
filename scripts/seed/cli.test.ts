import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { specsFromJson } from "./cli";

describe("npm run seed", () => {
  it("reads a spec file as Polymarket entries or as MarketSpecs, reporting refused entries", () => {
    const pm = specsFromJson([{ conditionId: "0x" + "ab".repeat(32), question: "Will it snow in Rome?", endDate: "2027-01-01T00:00:00Z" }], false);
    assert.equal(pm.specs[0].externalId, `polymarket:0x${"ab".repeat(32)}`);
    const own = specsFromJson(
      [
        {
          externalId: "own:1",
          title: "A market of our own",
          pricingModel: "automated",
          outcomes: ["Yes", "No"],
          closeTime: 1_900_000_000_000,
          seed: "5000000",
          resolutionSource: { type: "creator", note: "" },
        },
        { externalId: "own:2", title: "Bad", pricingModel: "automated", outcomes: ["Yes"], closeTime: 1, resolutionSource: { type: "creator", note: "" } },
      ],
      false,
    );
    assert.equal(own.specs.length, 1);
    assert.equal(own.specs[0].seed, 5_000_000n);
    assert.deepEqual(
      own.errors.map((e) => e.index),
      [1],
    );
  });
});
