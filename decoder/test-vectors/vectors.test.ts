import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { hexToBytes, type Hex } from "viem";
import { buildJournalVectors, buildMalformedJournalVectors, buildMerkleVectors } from "./build";
import { decodePayload } from "../journal/codec";
import { JournalDecodeError } from "../errors";
import { stringifyJson } from "../json";
import { verifyProof } from "../merkle/verify";
import { naiveLeaf, naiveRoot } from "../test-support/naive-root";
import { OP_TAGS } from "../journal/ops";
import { MARKET_STATES } from "../journal/market-states";
import { BallotBook } from "../replay/ballots";

const load = (name: string) => JSON.parse(readFileSync(join(__dirname, name), "utf8"));

describe("test vectors", () => {
  it("merkle.json is what the code produces", async () => {
    assert.deepEqual(await buildMerkleVectors(), load("merkle.json"));
  });

  it("journal.json is what the code produces", async () => {
    assert.deepEqual(await buildJournalVectors(), load("journal.json"));
  });

  it("journal-malformed.json is what the code produces", () => {
    assert.deepEqual(buildMalformedJournalVectors(), load("journal-malformed.json"));
  });

  it("every malformed payload fails with its listed code at its listed offset, never a crash", () => {
    const cases = load("journal-malformed.json").cases as { name: string; payload: Hex; error: { code: string; offset: number } }[];
    assert.ok(cases.length >= 15);
    for (const c of cases) {
      assert.throws(
        () => decodePayload(hexToBytes(c.payload)),
        (e: unknown) => e instanceof JournalDecodeError && e.code === c.error.code && e.offset === c.error.offset,
        c.name,
      );
    }
    // Every code of the format has at least one vector.
    const codes = new Set(cases.map((c) => c.error.code));
    for (const code of ["TRUNCATED", "BAD_MAGIC", "UNKNOWN_VERSION", "UNKNOWN_OP", "INDEX_OUT_OF_RANGE", "TRAILING_BYTES", "VARINT_OVERSIZE", "VARINT_NONCANONICAL", "INVALID_VALUE"]) {
      assert.ok(codes.has(code), code);
    }
  });

  it("merkle.json agrees with the naive rule and OZ proof verification", () => {
    for (const c of load("merkle.json").cases) {
      const balances = c.balances.map((b: { account: string; assetId: string; balance: string }) => ({ account: b.account, assetId: BigInt(b.assetId), balance: BigInt(b.balance) }));
      assert.equal(naiveRoot(balances), c.root, c.name);
      // Leaves are exactly the non-zero balances of non-supply accounts.
      const kept = balances.filter((b: { account: string; balance: bigint }) => b.balance !== 0n && BigInt(b.account) !== 0n);
      assert.equal(c.leaves.length, kept.length, c.name);
      assert.ok(c.leaves.every((l: { account: string; balance: string }) => BigInt(l.balance) !== 0n && BigInt(l.account) !== 0n), c.name);
      // promotedAtLevels: a level whose node count is odd (and > 1) promotes its last node.
      const promoted: number[] = [];
      for (let size = c.leaves.length, level = 0; size > 1; size = Math.ceil(size / 2), level++) if (size % 2 === 1) promoted.push(level);
      assert.deepEqual(c.promotedAtLevels, promoted, c.name);
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
      assert.equal(stringifyJson(decoded.ops), JSON.stringify(c.ops));
    }
  });

  it("the named cases hold what their names promise", () => {
    const merkle = new Map((load("merkle.json").cases as { name: string; balances: { account: string; balance: string }[]; leaves: unknown[]; promotedAtLevels: number[] }[]).map((c) => [c.name, c]));
    assert.deepEqual(merkle.get("seven leaves (odd node promoted at the leaf level only)")?.promotedAtLevels, [0]);
    assert.deepEqual(merkle.get("eleven leaves (promotion at two levels, 0 and 2)")?.promotedAtLevels, [0, 2]);
    const dropped = merkle.get("zero balance and supply account dropped")!;
    assert.ok(dropped.balances.some((b) => BigInt(b.balance) === 0n) && dropped.balances.some((b) => BigInt(b.account) === 0n));
    assert.equal(dropped.leaves.length, 3);
    const ops = (load("journal.json").cases as { ops: { type: string; kind?: number }[] }[]).flatMap((c) => c.ops);
    for (const kind of [0, 1, 2, 3]) assert.ok(ops.some((op) => op.type === "MATCH" && op.kind === kind), `a MATCH of kind ${kind}`);
    // Every operation type and every market state has a well-formed case.
    for (const type of Object.keys(OP_TAGS)) assert.ok(ops.some((op) => op.type === type), `an op of type ${type}`);
    for (const state of MARKET_STATES) assert.ok(ops.some((op) => op.type === "MARKET_STATE" && (op as { state?: string }).state === state), `MARKET_STATE ${state}`);
    // Every operation tag after the first twelve has a malformed case.
    const malformed = (load("journal-malformed.json").cases as { payload: Hex }[]).map((c) => hexToBytes(c.payload));
    for (const tag of Object.values(OP_TAGS).filter((t) => t > 0x0c)) {
      assert.ok(malformed.some((bytes) => bytes.length > 27 && bytes[25] === 1 && bytes[26] === tag), `a malformed case of tag 0x${tag.toString(16)}`);
    }
  });

  it("every ballot of journal.json opens its commitment: the lifecycle cases pass the replay's ballot check", () => {
    let reveals = 0;
    for (const c of load("journal.json").cases as { name: string; payload: Hex }[]) {
      const { ops } = decodePayload(hexToBytes(c.payload));
      const book = new BallotBook();
      const check = book.check(ops);
      assert.deepEqual(check.failures, [], c.name);
      assert.equal(book.size, 0, c.name);
      reveals += check.revealsChecked;
    }
    assert.equal(reveals, 5);
  });
});
