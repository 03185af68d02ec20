import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { KeyFilter } from "./key-filter";

describe("KeyFilter", () => {
  it("never forgets a key it was given, and tells most others apart (a small filter, to see its false rate)", () => {
    const filter = new KeyFilter(16); // 65,536 bits
    for (let i = 0; i < 5_000; i++) filter.add(`agent:${i % 13}`, `key-${i}`);
    for (let i = 0; i < 5_000; i++) assert.ok(filter.mayHave(`agent:${i % 13}`, `key-${i}`), `key-${i}`);
    let maybe = 0;
    for (let i = 0; i < 20_000; i++) if (filter.mayHave(`agent:${i % 13}`, `other-${i}`)) maybe++;
    // Theory for 5,000 keys, 4 probes, 2^16 bits: (1 - e^(-4·5000/65536))^4 ≈ 0.5%.
    assert.ok(maybe / 20_000 < 0.02, `false "maybe" rate ${maybe / 20_000}`);
  });

  it("keeps owners and keys apart", () => {
    const filter = new KeyFilter();
    filter.add("agent:a", "k");
    assert.ok(filter.mayHave("agent:a", "k"));
    assert.ok(!filter.mayHave("agent:b", "k"));
    assert.ok(!filter.mayHave("agent:a", "K"));
    assert.ok(!filter.mayHave("agent:ak", ""));
  });
});
