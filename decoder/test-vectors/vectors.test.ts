import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { hexToBytes, type Hex } from "viem";
import { buildJournalVectors, buildMerkleVectors } from "./build";
import { decodePayload } from "../journal/codec";
import { verifyProof } from "../merkle/verify";
import { naiveLeaf, naiveRoot } from "../test-support/naive-root";

const load = (name: string) => JSON.parse(readFileSync(join(__dirname, name), "utf8"));

describe("test vectors", () => {
  it("merkle.json is what the code produces", async () => {
    assert.deepEqual(await buildMerkleVectors(), load("merkle.json"));
  });

  it("journal.json is what the code produces", async () => {
    assert.deepEqual(await buildJournalVectors(), load("journal.json"));
  });

  it("merkle.json agrees with the naive rule and OZ proof verification", () => {
    for (const c of load("merkle.json").cases) {
      const balances = c.balances.map((b: { account: string; assetId: string; balance: string }) => ({ account: b.account, assetId: BigInt(b.assetId), balance: BigInt(b.balance) }));
      assert.equal(naiveRoot(balances), c.root, c.name);
      for (const l of c.leaves) {
        assert.equal(naiveLeaf(l.account, BigInt(l.assetId), BigInt(l.balance)), l.leaf);
        assert.ok(verifyProof(l.proof as Hex[], c.root, l.leaf));
      }
    }
  });

  it("journal.json payloads decode to their listed operations", () => {
    for (const c of load("journal.json").cases) {
      const decoded = decodePayload(hexToBytes(c.payload));
      assert.equal(decoded.ops.length, c.ops.length, c.name);
      assert.equal(JSON.stringify(decoded.ops, (_k, v) => (typeof v === "bigint" ? v.toString() : v)), JSON.stringify(c.ops));
    }
  });
});
