/**
 * The deprecated cash-flow history on journal ops written by hand: each side of each kind of fill, LMSR trades with
 * their fee, payouts and refunds (the rows and their pages: api/domain/ledger/account-histories.test.ts).
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { Address } from "viem";
import type { JournalOp } from "../../../decoder/journal/ops";
import { cashFlowsOf } from "./cash-flows";

const MAKER = "0x00000000000000000000000000000000000000a1" as Address;
const TAKER = "0x00000000000000000000000000000000000000b1" as Address;
const M = 3n;

/** [account, kind, outcome, shares, cashFlow, fee] of an op's flows. */
const flows = (op: JournalOp) => cashFlowsOf(9, 1_000, op).map(({ account, flow: f }) => [account, f.kind, f.outcome, f.shares, f.cashFlow, f.fee]);
const match = (kind: 0 | 1 | 2 | 3): JournalOp => ({
  type: "MATCH",
  maker: MAKER,
  taker: TAKER,
  marketId: M,
  side: 0,
  kind,
  shares: 100n,
  priceBps: 4000,
  fee: 2n,
});

describe("cash flows", () => {
  it("gives each side of a fill what it paid or received, the taker's fee included", () => {
    // 0: the taker buys YES from the maker at 40: pays 40 and the fee.
    assert.deepEqual(flows(match(0)), [
      [MAKER, "sell", 0, 100n, 40n, 0n],
      [TAKER, "buy", 0, 100n, -42n, 2n],
    ]);
    // 1: the maker buys YES from the taker.
    assert.deepEqual(flows(match(1)), [
      [MAKER, "buy", 0, 100n, -40n, 0n],
      [TAKER, "sell", 0, 100n, 38n, 2n],
    ]);
    // 2: a mint: the maker buys YES at 40, the taker NO at 60.
    assert.deepEqual(flows(match(2)), [
      [MAKER, "buy", 0, 100n, -40n, 0n],
      [TAKER, "buy", 1, 100n, -62n, 2n],
    ]);
    // 3: a merge: each gives up its side and receives its part of the collateral.
    assert.deepEqual(flows(match(3)), [
      [MAKER, "sell", 0, 100n, 40n, 0n],
      [TAKER, "sell", 1, 100n, 58n, 2n],
    ]);
  });

  it("counts LMSR trades with their fee, payouts and refunds, and nothing else", () => {
    assert.deepEqual(flows({ type: "LMSR_TRADE", account: TAKER, marketId: M, side: 1, direction: "BUY", shares: 50n, collateral: 30n, fee: 1n }), [
      [TAKER, "buy", 1, 50n, -31n, 1n],
    ]);
    assert.deepEqual(flows({ type: "LMSR_TRADE", account: TAKER, marketId: M, side: 1, direction: "SELL", shares: 20n, collateral: 12n, fee: 1n }), [
      [TAKER, "sell", 1, 20n, 11n, 1n],
    ]);
    assert.deepEqual(flows({ type: "RESOLUTION_PAYOUT", marketId: M, account: MAKER, side: 0, shares: 100n, payout: 99n, source: "SUPPLY" }), [
      [MAKER, "payout", 0, 100n, 99n, 0n],
    ]);
    assert.deepEqual(flows({ type: "VOID_REFUND", marketId: M, account: MAKER, side: 0, shares: 100n, refund: 40n, source: "POOL" }), [
      [MAKER, "refund", 0, 100n, 40n, 0n],
    ]);
    assert.deepEqual(flows({ type: "BOND_LOCK", marketId: M, account: MAKER, amount: 50n }), []);
    assert.deepEqual(flows({ type: "CREDIT", account: MAKER, assetId: 0n, amount: 50n, reason: 0 }), []);
  });
});
