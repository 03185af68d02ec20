import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { LedgerState } from "./state";
import { accountProof } from "./account-proof";
import { applyOps, movementsOf } from "../journal/movements";
import { verifyProof } from "../merkle/verify";
import { EMPTY_ROOT } from "../merkle/tree";
import { SUPPLY_ACCOUNT, outcomeAssetId, poolAccountOf } from "../assets";
import { INT256_MAX } from "./movement";
import { LedgerMovementError } from "../errors";
import { opArb } from "../test-support/arbitraries";
import { naiveLeaf, naiveRoot } from "../test-support/naive-root";
import type { Address } from "viem";

const A = "0x1111111111111111111111111111111111111111" as Address;
const B = "0x2222222222222222222222222222222222222222" as Address;
const T = "0x9999999999999999999999999999999999999999" as Address;
const ctx = { treasury: T };

describe("LedgerState", () => {
  it("starts with the empty root", async () => {
    assert.equal(await new LedgerState().root(), EMPTY_ROOT);
  });

  it("applies the MINT match per the conventions and sums every asset to zero", () => {
    const s = new LedgerState();
    applyOps(
      s,
      [
        { type: "CREDIT", account: A, assetId: 0n, amount: 1_000_000n, reason: 0 },
        { type: "CREDIT", account: B, assetId: 0n, amount: 1_000_000n, reason: 0 },
        { type: "MATCH", maker: A, taker: B, marketId: 1n, side: 0, kind: 2, shares: 10_000n, priceBps: 6000, fee: 7n },
      ],
      ctx,
    );
    assert.equal(s.balanceOf(A, 0n), 1_000_000n - 6000n);
    assert.equal(s.balanceOf(B, 0n), 1_000_000n - 4000n - 7n);
    assert.equal(s.balanceOf(A, outcomeAssetId(1n, 0)), 10_000n);
    assert.equal(s.balanceOf(B, outcomeAssetId(1n, 1)), 10_000n);
    assert.equal(s.balanceOf(T, 0n), 7n);
    for (const asset of [0n, 256n, 257n]) assert.equal(s.totalOf(asset), 0n);
  });

  it("LMSR buys pay the pool and mint shares from supply", () => {
    const moves = movementsOf({ type: "LMSR_TRADE", account: A, marketId: 3n, side: 1, direction: "BUY", shares: 50n, collateral: 30n, fee: 1n }, ctx);
    assert.deepEqual(moves, [
      { from: A, to: poolAccountOf(3n), assetId: 0n, amount: 30n },
      { from: SUPPLY_ACCOUNT, to: A, assetId: outcomeAssetId(3n, 1), amount: 50n },
      { from: A, to: T, assetId: 0n, amount: 1n },
    ]);
  });

  it("incremental root equals the naive root after every batch, and all proofs verify (OZ semantics)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(opArb(false), { maxLength: 8 }), { minLength: 1, maxLength: 4 }), async (batches) => {
        const s = new LedgerState();
        for (const ops of batches) {
          applyOps(s, ops, ctx);
          const root = await s.root();
          assert.equal(root, naiveRoot(s.entries()));
          for (const e of s.entries()) {
            const p = await s.proof(e.account, e.assetId);
            assert.ok(p && verifyProof(p.proof, root, p.leaf));
            assert.equal(p.leaf, naiveLeaf(e.account, e.assetId, e.balance));
          }
        }
        for (const asset of new Set(s.entries().map((e) => e.assetId))) assert.equal(s.totalOf(asset), 0n);
      }),
      { numRuns: 150 },
    );
  });

  it("drops zero balances and the account with them", async () => {
    const s = new LedgerState();
    s.applyMovement({ from: SUPPLY_ACCOUNT, to: A, assetId: 0n, amount: 5n });
    s.applyMovement({ from: A, to: SUPPLY_ACCOUNT, assetId: 0n, amount: 5n });
    assert.deepEqual(s.entries(), []);
    assert.equal(await s.root(), EMPTY_ROOT);
  });

  it("refuses non-positive amounts and int256 overflow without changing state", () => {
    const s = new LedgerState();
    assert.throws(() => s.applyMovement({ from: SUPPLY_ACCOUNT, to: A, assetId: 0n, amount: 0n }), LedgerMovementError);
    s.setBalance(A, 0n, INT256_MAX);
    assert.throws(() => s.applyMovement({ from: B, to: A, assetId: 0n, amount: 1n }), LedgerMovementError);
    assert.equal(s.balanceOf(B, 0n), 0n);
  });

  it("accountProof covers every asset of the account and each proof verifies", async () => {
    const s = new LedgerState();
    applyOps(
      s,
      [
        { type: "CREDIT", account: A, assetId: 0n, amount: 100n, reason: 1 },
        { type: "CREDIT", account: A, assetId: outcomeAssetId(2n, 1), amount: 3n, reason: 8 },
        { type: "CREDIT", account: B, assetId: 0n, amount: 9n, reason: 0 },
      ],
      ctx,
    );
    const p = await accountProof(s, A);
    assert.equal(p.root, await s.root());
    assert.deepEqual(
      p.leaves.map((l) => l.assetId),
      [0n, outcomeAssetId(2n, 1)],
    );
    for (const l of p.leaves) assert.ok(verifyProof(l.proof, p.root, l.leaf));
    assert.deepEqual((await accountProof(s, T)).leaves, []);
  });
});
