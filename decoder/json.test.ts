import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bigintFields, bigintParser, stringifyJson, toJsonValue } from "./json";

describe("bigint JSON", () => {
  it("writes bigints as decimal strings at any depth", () => {
    assert.equal(stringifyJson({ a: 1n, b: [-2n, { c: 10n ** 40n }], d: "x" }), `{"a":"1","b":["-2",{"c":"${10n ** 40n}"}],"d":"x"}`);
    assert.deepEqual(toJsonValue({ a: 1n, u: undefined, n: null }), { a: "1", n: null });
    assert.equal(toJsonValue(undefined), undefined);
  });

  it("revives only the named fields, and only integer strings", () => {
    const parse = bigintParser(bigintFields<{ a: bigint; xs: { b?: bigint }[]; s: string; bs: string[] }>()("a", "b"));
    assert.deepEqual(parse(`{"a":"-5","xs":[{"b":"7"},{}],"s":"9"}`), { a: -5n, xs: [{ b: 7n }, {}], s: "9" });
    assert.deepEqual(parse(`{"a":"1.5"}`), { a: "1.5" });
    // Array elements and other names stay strings; a nested object under a named field is read too.
    assert.deepEqual(parse(`{"b":["1","2"],"s":{"a":"3"},"n":null,"x":[null,["4"]]}`), { b: ["1", "2"], s: { a: 3n }, n: null, x: [null, ["4"]] });
    assert.deepEqual(parse(`"7"`), "7");
  });
});
