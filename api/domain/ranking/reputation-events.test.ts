/** Reputation events from journal ops written by hand: who gets which event in which role, for a market's whole life. */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { Address } from "viem";
import type { JournalOp } from "../../../decoder/journal/ops";
import { OUTCOME_NONE } from "../../../decoder/journal/market-states";
import { eventsOfEntry, type Parties } from "./reputation-events";

const CREATOR = "0x00000000000000000000000000000000000000c1" as Address;
const CHALLENGER = "0x00000000000000000000000000000000000000c2" as Address;
const VOTER = "0x00000000000000000000000000000000000000a1" as Address;
const HOLDER = "0x00000000000000000000000000000000000000b1" as Address;
const M = 7n;

describe("reputation events", () => {
  it("names the creator by the market's first bond, the challenger by the next, and gives each their part of the market's end", () => {
    const parties: Parties = { creators: new Map(), challengers: new Map() };
    const entries: JournalOp[][] = [
      [
        { type: "BOND_LOCK", marketId: M, account: CREATOR, amount: 50n },
        { type: "MARKET_SEED", marketId: M, funder: CREATOR, amount: 500n },
      ],
      [{ type: "MARKET_STATE", marketId: M, state: "closed", outcome: OUTCOME_NONE }],
      [{ type: "MARKET_STATE", marketId: M, state: "creator_proposal", outcome: 0 }],
      [
        { type: "BOND_LOCK", marketId: M, account: CHALLENGER, amount: 50n },
        { type: "MARKET_STATE", marketId: M, state: "challenge", outcome: OUTCOME_NONE },
      ],
      [{ type: "STAKE_LOCK", marketId: M, session: 1, account: VOTER, amount: 10n, ballotHash: `0x${"11".repeat(32)}` }],
      [
        { type: "BALLOT_REVEAL", marketId: M, session: 1, account: VOTER, outcome: 1, salt: `0x${"22".repeat(32)}` },
        { type: "MARKET_STATE", marketId: M, state: "resolved", outcome: 1 },
        { type: "BOND_SLASH", marketId: M, account: CREATOR, amount: 25n },
        { type: "BOND_AWARD", marketId: M, account: CREATOR, recipient: CHALLENGER, amount: 25n },
        { type: "BOND_RETURN", marketId: M, account: CHALLENGER, amount: 50n },
        { type: "STAKE_RETURN", marketId: M, session: 1, account: VOTER, amount: 10n },
        { type: "VOTE_REWARD", marketId: M, session: 1, account: VOTER, amount: 3n },
        { type: "RESOLUTION_PAYOUT", marketId: M, account: HOLDER, side: 1, shares: 40n, payout: 40n, source: "POOL" },
      ],
    ];
    const events = entries.flatMap((ops, i) => eventsOfEntry(parties, i + 1, 1000 * (i + 1), ops));
    const seen = events.map((e) => [e.seq, e.kind, e.role, e.account, e.state, e.outcome, e.amount === null ? null : Number(e.amount)]);
    assert.deepEqual(seen, [
      [1, "market_created", "creator", CREATOR, null, null, 50],
      [3, "market_state", "creator", CREATOR, "creator_proposal", 0, null],
      [4, "challenge_bond_locked", "challenger", CHALLENGER, null, null, 50],
      [4, "market_state", "creator", CREATOR, "challenge", null, null],
      [5, "ballot_cast", "juror", VOTER, null, null, 10],
      [6, "ballot_revealed", "juror", VOTER, null, 1, null],
      [6, "market_state", "creator", CREATOR, "resolved", 1, null],
      [6, "market_state", "challenger", CHALLENGER, "resolved", 1, null],
      [6, "bond_slashed", "creator", CREATOR, null, null, 25],
      [6, "bond_awarded", "challenger", CHALLENGER, null, null, 25],
      [6, "bond_returned", "challenger", CHALLENGER, null, null, 50],
      [6, "stake_returned", "juror", VOTER, null, null, 10],
      [6, "vote_rewarded", "juror", VOTER, null, null, 3],
      [6, "payout", "trader", HOLDER, null, 1, 40],
    ]);
    assert.equal(events.find((e) => e.kind === "ballot_cast")!.session, 1);
    // A market created without a bond has no creator: its states are nobody's events.
    const none = eventsOfEntry(parties, 7, 7000, [{ type: "MARKET_STATE", marketId: 8n, state: "void", outcome: OUTCOME_NONE }]);
    assert.deepEqual(none, []);
  });
});
