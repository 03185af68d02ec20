import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import fc from "fast-check";
import { payloadHash, payloadHashOfMembers } from "./canonical-json";

describe("payloadHashOfMembers", () => {
  it("hashes as payloadHash of the merged object, whatever the members, and again the same from its kept texts", () => {
    const member = fc.oneof(fc.constant(undefined), fc.jsonValue(), fc.bigInt());
    fc.assert(
      fc.property(fc.dictionary(fc.string(), member), fc.dictionary(fc.string(), member), (value, extra) => {
        const expected = payloadHash({ ...value, ...extra });
        assert.equal(payloadHashOfMembers(value, extra), expected);
        assert.equal(payloadHashOfMembers(value, extra), expected, "from the kept member texts");
        assert.equal(payloadHashOfMembers(value), payloadHash(value));
      }),
      { numRuns: 500 },
    );
  });
});
