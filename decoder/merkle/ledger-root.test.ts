/** LedgerState's leaf-hash cache: incremental roots equal a from-scratch root, whatever happens in between. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Address } from "viem";
import { LedgerState } from "../ledger/state";
import { naiveLeaf, naiveRoot } from "../test-support/naive-root";
import { verifyProof } from "./verify";

const ACCOUNTS: Address[] = [
  "0x1111111111111111111111111111111111111111",
  "0x2222222222222222222222222222222222222222",
  "0x00000000000000000000000000000000000000aa",
  "0xffffffffffffffffffffffffffffffffffffffff",
];
const ASSETS = [0n, 256n, 257n, 258n, (1n << 256n) - 1n];

const accountOf = (i: number): Address => `0x${(i + 1).toString(16).padStart(40, "0")}`;

type Step =
  | { kind: "set"; account: number; asset: number; balance: bigint }
  | { kind: "root" }
  | { kind: "entries"; account: number }
  | { kind: "proof"; account: number; asset: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("set" as const),
      account: fc.nat(3),
      asset: fc.nat(4),
      balance: fc.oneof(fc.constant(0n), fc.bigInt({ min: -(1n << 255n), max: (1n << 255n) - 1n })),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: "root" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("entries" as const), account: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("proof" as const), account: fc.nat(3), asset: fc.nat(4) }) },
);

describe("LedgerState leaf cache", () => {
  it("root after any mix of changes, listings, proofs and roots equals the naive root", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { maxLength: 40 }), async (steps) => {
        const s = new LedgerState();
        for (const step of steps) {
          if (step.kind === "set") s.setBalance(ACCOUNTS[step.account], ASSETS[step.asset], step.balance);
          else if (step.kind === "entries") s.accountEntries(ACCOUNTS[step.account]);
          else if (step.kind === "proof") await s.proof(ACCOUNTS[step.account], ASSETS[step.asset]);
          else assert.equal(await s.root(), naiveRoot(s.entries()));
        }
        const root = await s.root();
        assert.equal(root, naiveRoot(s.entries()));
        for (const e of s.entries()) {
          const p = (await s.proof(e.account, e.assetId))!;
          assert.equal(p.leaf, naiveLeaf(e.account, e.assetId, e.balance));
          assert.ok(verifyProof(p.proof, root, p.leaf));
        }
      }),
      { numRuns: 150 },
    );
  });

  it("an account that gains an asset is re-hashed whole even if its assets were listed before the root", async () => {
    const s = new LedgerState();
    s.setBalance(ACCOUNTS[0], 0n, 5n);
    s.setBalance(ACCOUNTS[0], 256n, 7n);
    await s.root();
    s.setBalance(ACCOUNTS[0], 257n, 9n);
    s.accountEntries(ACCOUNTS[0]); // recomputes the sorted asset list between the change and the root
    assert.equal(await s.root(), naiveRoot(s.entries()));
  });

  it("many scattered changes (more than one re-hash chunk) between two roots", async () => {
    const s = new LedgerState();
    const accounts = 6_000;
    for (let a = 0; a < accounts; a++) for (let k = 0; k < 4; k++) s.setBalance(accountOf(a), BigInt(k), BigInt(a * 10 + k + 1));
    await s.root();
    for (let a = 0; a < accounts; a++) {
      for (let k = 1; k < 4; k++) s.setBalance(accountOf(a), BigInt(k), BigInt(a * 10 + k + 2)); // 18,000 leaves, gaps between
      if (a % 997 === 0) s.setBalance(accountOf(a), 9n, 1n); // a few accounts reshaped
      if (a % 1_499 === 0) s.setBalance(accountOf(a), 0n, 0n);
    }
    s.setBalance(accountOf(accounts + 5), 0n, 3n); // a new account at the end
    assert.equal(await s.root(), naiveRoot(s.entries()));
  });
});
