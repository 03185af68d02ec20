import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bigintFields, bigintReviver, stringifyJson, toJsonValue } from "./json";

describe("bigint JSON", () => {
  it("writes bigints as decimal strings at any depth", () => {
    assert.equal(stringifyJson({ a: 1n, b: [-2n, { c: 10n ** 40n }], d: "x" }), `{"a":"1","b":["-2",{"c":"${10n ** 40n}"}],"d":"x"}`);
    assert.deepEqual(toJsonValue({ a: 1n, u: undefined, n: null }), { a: "1", n: null });
    assert.equal(toJsonValue(undefined), undefined);
  });

  it("revives only the named fields, and only integer strings", () => {
    const revive = bigintReviver(bigintFields<{ a: bigint; xs: { b?: bigint }[]; s: string }>()("a", "b"));
    assert.deepEqual(JSON.parse(`{"a":"-5","xs":[{"b":"7"},{}],"s":"9"}`, revive), { a: -5n, xs: [{ b: 7n }, {}], s: "9" });
    assert.deepEqual(JSON.parse(`{"a":"1.5"}`, revive), { a: "1.5" });
  });
});
