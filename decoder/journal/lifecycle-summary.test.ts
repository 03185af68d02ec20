import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { hexToBytes, type Hex } from "viem";
import { decodePayload } from "./codec";
import { lifecycleSummary } from "./lifecycle-summary";

const cases = JSON.parse(readFileSync(join(__dirname, "..", "test-vectors", "journal.json"), "utf8")).cases as { name: string; payload: Hex }[];
const opsOf = (prefix: string) => decodePayload(hexToBytes(cases.find((c) => c.name.startsWith(prefix))!.payload)).ops;

describe("lifecycleSummary", () => {
  it("sums up a challenged market: its states, the ballots revealed and each kind of payment", () => {
    const [m] = lifecycleSummary(opsOf("lifecycle: created, proposed, challenged"));
    assert.equal(m.marketId, 20n);
    assert.deepEqual(m.transitions, [
      { state: "open", outcome: null },
      { state: "closed", outcome: null },
      { state: "creator_proposal", outcome: 0 },
      { state: "challenge", outcome: 0 },
      { state: "human_voting", outcome: null },
      { state: "council_review", outcome: 1 },
      { state: "resolved", outcome: 1 },
    ]);
    assert.deepEqual(m.ballots, [
      { outcome: 0, count: 1 },
      { outcome: 1, count: 2 },
    ]);
    assert.deepEqual(m.totals, [
      { type: "MARKET_SEED", count: 1, amount: 100_000n },
      { type: "POOL_WITHDRAW", count: 1, amount: 91_000n },
      { type: "RESOLUTION_PAYOUT", count: 1, amount: 19_800n },
      { type: "FEE_SWEEP", count: 1, amount: 200n },
      { type: "BOND_LOCK", count: 2, amount: 20_008n },
      { type: "BOND_RETURN", count: 1, amount: 10_004n },
      { type: "BOND_SLASH", count: 1, amount: 2_501n },
      { type: "BOND_AWARD", count: 2, amount: 7_503n },
      { type: "STAKE_LOCK", count: 3, amount: 3_000n },
      { type: "STAKE_RETURN", count: 2, amount: 2_000n },
      { type: "VOTE_REWARD", count: 2, amount: 3_500n },
      { type: "VOTE_ESCROW_SWEEP", count: 1, amount: 1n },
    ]);
  });

  it("lists every market a lifecycle op names, in first-use order, and nothing for trades and grants", () => {
    assert.deepEqual(lifecycleSummary(opsOf("order book: grants, mint")), []);
    const summary = lifecycleSummary([
      { type: "STAKE_LOCK", marketId: 5n, session: 1, account: "0x3333333333333333333333333333333333333333", amount: 10n, ballotHash: `0x${"00".repeat(32)}` },
      { type: "VOID_REFUND", marketId: 4n, account: "0x3333333333333333333333333333333333333333", side: 0, shares: 8n, refund: 4n, source: "SUPPLY" },
      { type: "MARKET_STATE", marketId: 4n, state: "void", outcome: 255 },
      { type: "VOID_REFUND", marketId: 4n, account: "0x4444444444444444444444444444444444444444", side: 1, shares: 6n, refund: 3n, source: "SUPPLY" },
    ]);
    assert.deepEqual(
      summary.map((m) => m.marketId),
      [5n, 4n],
    );
    assert.deepEqual(summary[1], {
      marketId: 4n,
      transitions: [{ state: "void", outcome: null }],
      ballots: [],
      totals: [{ type: "VOID_REFUND", count: 2, amount: 7n }],
    });
  });
});
