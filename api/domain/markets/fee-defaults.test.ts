import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { FEE_DEFAULTS } from "../../../relayer/pricing/fees";
import { buildFees } from "./fee-defaults";

describe("published fee defaults", () => {
  it("are the schedule the engine charges (relayer/pricing/fees.ts)", () => {
    const published = buildFees(8453);
    assert.deepEqual({ lmsr: published.lmsr, orderbook: published.orderbook }, FEE_DEFAULTS);
  });
});
