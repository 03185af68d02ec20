import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Hex } from "viem";
import { batchJson, describeLifecycle, describeMismatch } from "./format";
import { lifecycleSummary } from "../journal/lifecycle-summary";
import type { JournalOp } from "../journal/ops";
import type { BatchResult } from "../replay/replay";

const C = "0x3333333333333333333333333333333333333333" as const;
const D = "0x4444444444444444444444444444444444444444" as const;
const H = `0x${"00".repeat(32)}` as Hex;

const payoutBatch: JournalOp[] = [
  { type: "MARKET_STATE", marketId: 12n, state: "resolved", outcome: 1 },
  { type: "RESOLUTION_PAYOUT", marketId: 12n, account: C, side: 1, shares: 100n, payout: 99n, source: "POOL" },
  { type: "RESOLUTION_PAYOUT", marketId: 12n, account: D, side: 1, shares: 50n, payout: 49n, source: "POOL" },
  { type: "RESOLUTION_PAYOUT", marketId: 12n, account: D, side: 0, shares: 50n, payout: 0n, source: "POOL" },
  { type: "BOND_RETURN", marketId: 12n, account: C, amount: 1_000n },
];

const batch = (ops: JournalOp[], over: Partial<BatchResult> = {}): BatchResult => ({
  nonce: 3n,
  txHash: H,
  blockNumber: 9n,
  kind: "journal",
  ops,
  treasury: C,
  movements: [],
  expectedRoot: H,
  computedRoot: H,
  rootOk: true,
  expectedCommitment: H,
  computedCommitment: H,
  commitmentOk: true,
  ballotOk: true,
  ballotFailures: [],
  ...over,
});

describe("decode output", () => {
  it("a payout batch reads as the market's resolution and what it paid", () => {
    assert.deepEqual(describeLifecycle(lifecycleSummary(payoutBatch)), [
      "lifecycle:",
      "  market 12: resolved (outcome 1)",
      "    RESOLUTION_PAYOUT: 3 totalling 148",
      "    BOND_RETURN: 1 totalling 1000",
    ]);
    const ballots = lifecycleSummary([
      { type: "BALLOT_REVEAL", marketId: 7n, session: 1, account: C, outcome: 1, salt: H },
      { type: "BALLOT_REVEAL", marketId: 7n, session: 1, account: D, outcome: 0, salt: H },
    ]);
    assert.deepEqual(describeLifecycle(ballots), ["lifecycle:", "  market 7: no state change", "    ballots revealed: 2 (outcome 0: 1, outcome 1: 1)"]);
    assert.deepEqual(describeLifecycle(lifecycleSummary([{ type: "CREDIT", account: C, assetId: 0n, amount: 1n, reason: 0 }])), []);
  });

  it("--json carries ballotOk always, and the lifecycle and ballot failures when there are any", () => {
    const json = batchJson(batch(payoutBatch), []) as Record<string, unknown>;
    assert.equal(json.ballotOk, true);
    assert.equal("ballotFailures" in json, false);
    assert.deepEqual(json.lifecycle, [
      {
        marketId: "12",
        transitions: [{ state: "resolved", outcome: 1 }],
        ballots: [],
        totals: [
          { type: "RESOLUTION_PAYOUT", count: 3, amount: "148" },
          { type: "BOND_RETURN", count: 1, amount: "1000" },
        ],
      },
    ]);
    const plain = batchJson(batch([{ type: "CREDIT", account: C, assetId: 0n, amount: 1n, reason: 0 }]), []) as Record<string, unknown>;
    assert.equal("lifecycle" in plain, false);

    const failure = { index: 0, code: "BALLOT_MISMATCH" as const, marketId: 7n, session: 1, account: C, message: "market 7 session 1 voter …: changed" };
    const failed = batch([], { ballotOk: false, ballotFailures: [failure] });
    assert.deepEqual((batchJson(failed, []) as Record<string, unknown>).ballotFailures, [{ ...failure, marketId: "7" }]);
    assert.match(describeMismatch(failed), /^batch nonce 3 .*; ballot BALLOT_MISMATCH at op 0: market 7 session 1 voter …: changed$/);
  });
});
