/**
 * Resolution in the engine (milestone two): the creator's proposal, the challenge, sealed ballots revealed at the
 * vote's end, the council (set by the operator), finality paying committed holders at once (receipts, fee swept,
 * bonds and stakes settled, escrows empty), creator funds, the on-chain lane's resolver action, and every refusal with
 * its code and no change. Every op replays through the PMJ5 codec to the engine's root, ballots checked.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Address, Hex } from "viem";
import { BallotBook, COLLATERAL_ASSET, bondEscrowOf, poolAccountOf, stringifyJson, voteEscrowOf } from "../../decoder";
import { challengeBy, councilReviewEndsAt, creatorResolveBy, voteEndsAt } from "../lifecycle";
import { A, B, C, PM, SHARE, rejects, replayRoot, setup } from "./test-helpers";
import type { CreateMarketCommand } from "./types";

const HOUR = 3_600_000;
const ID = 30n;
const CLOSE = 1_000 + 10 * HOUR;
const VOTERS = ["0x" + "1".repeat(40), "0x" + "2".repeat(40), "0x" + "3".repeat(40)] as Address[];
const COUNCIL = ("0x" + "9".repeat(40)) as Address;
const salt = (i: number): Hex => `0x${i.toString(16).padStart(64, "0")}`;

function world(over: Partial<CreateMarketCommand> = {}) {
  const s = setup();
  for (const v of VOTERS) s.run({ type: "credit", account: v, amount: 100n * PM, reason: "GRANT" });
  s.run({ type: "setCouncil", members: [COUNCIL] });
  s.run({
    type: "createMarket",
    marketId: ID,
    pricing: "LMSR",
    outcomes: 2,
    feeModel: "notional-v1",
    takerFeeBps: 0,
    sellExitFeeBps: 0,
    winningsExitFeeBps: 200,
    seed: 100n * PM,
    creator: C,
    closeTime: CLOSE,
    ...over,
  });
  return s;
}

const escrows = (s: ReturnType<typeof setup>) => [bondEscrowOf(ID), voteEscrowOf(ID)].map((a) => s.e.balance(a, COLLATERAL_ASSET).total);

describe("engine lifecycle: resolution and payouts", () => {
  it("unchallenged: the proposal is final at challengeBy, holders are paid at once, the bond returns, the creator collects", async () => {
    const s = world();
    s.run({ type: "lmsrTrade", account: A, marketId: ID, outcome: 0, direction: "BUY", shares: 20n * SHARE });
    s.run({ type: "lmsrTrade", account: B, marketId: ID, outcome: 1, direction: "BUY", shares: 5n * SHARE });
    rejects(s.attempt({ type: "proposeOutcome", account: A, marketId: ID, outcome: 0 }, CLOSE + HOUR), "NOT_CREATOR");
    rejects(s.attempt({ type: "collectCreatorFunds", account: C, marketId: ID }), "MARKET_NOT_FINAL");
    const p = s.run({ type: "proposeOutcome", account: C, marketId: ID, outcome: 0 }, CLOSE + HOUR);
    // The clock's close comes first, then the proposal.
    assert.deepEqual(
      p.result.events.map((e) => [e.from, e.to, e.reason]),
      [
        ["open", "closed", "closeTimeReached"],
        ["closed", "creator_proposal", "propose"],
      ],
    );
    assert.equal(p.result.lifecycle.challengeBy, challengeBy(CLOSE + HOUR));
    assert.deepEqual(
      p.ops.filter((o) => o.type === "MARKET_STATE").map((o) => o.type === "MARKET_STATE" && [o.state, o.outcome]),
      [
        ["closed", 255],
        ["creator_proposal", 0],
      ],
    );
    rejects(s.attempt({ type: "proposeOutcome", account: C, marketId: ID, outcome: 1 }, CLOSE + HOUR), "WRONG_MARKET_STATE");
    const cBefore = s.e.balance(C, COLLATERAL_ASSET).total;
    const r = s.run({ type: "advanceLifecycle" }, challengeBy(CLOSE + HOUR));
    assert.deepEqual(
      r.result.events.map((e) => [e.to, e.reason, e.outcome]),
      [["resolved", "challengeWindowElapsed", 0]],
    );
    const fee = (20n * SHARE * 200n + 9_999n) / 10_000n;
    assert.deepEqual(r.result.settled, [{ marketId: "30", settlement: { verdict: 0, paid: 20n * SHARE - fee, fees: fee, holders: 2 } }]);
    assert.deepEqual(s.e.receiptsOf(A), [
      { marketId: "30", account: A, shares: [20n * SHARE, 0n], paid: 20n * SHARE - fee, fee, kind: "payout", at: challengeBy(CLOSE + HOUR) },
    ]);
    assert.equal(s.e.payoutReceipts(ID)!.length, 2);
    assert.equal(s.e.balance(C, COLLATERAL_ASSET).total - cBefore, 10n * PM, "the creation bond (the 10 PM minimum) came back");
    assert.deepEqual(escrows(s), [0n, 0n]);
    const funds = s.e.creatorFunds(ID)!;
    assert.ok(funds.final && funds.residual > 0n && funds.collectable === funds.residual);
    rejects(s.attempt({ type: "collectCreatorFunds", account: A, marketId: ID }), "NOT_CREATOR");
    const col = s.run({ type: "collectCreatorFunds", account: C, marketId: ID });
    assert.deepEqual(col.ops, [{ type: "POOL_WITHDRAW", marketId: ID, account: C, amount: funds.residual }]);
    assert.equal(s.e.balance(poolAccountOf(ID), COLLATERAL_ASSET).total, 0n);
    assert.equal(s.run({ type: "collectCreatorFunds", account: C, marketId: ID }).result.amount, 0n, "nothing left: no op");
    assert.equal(s.e.creatorFunds(ID)!.collected, funds.residual);
    assert.equal(s.e.market(ID)!.status, "resolved");
    assert.equal(await s.e.ledger.root(), await replayRoot(s.ops));
  });

  it("challenged: sealed ballots revealed at the vote's end, the council decides, bonds and stakes settle, every escrow ends at zero", async () => {
    const s = world({ pricing: "ORDERBOOK", seed: undefined, winningsExitFeeBps: 0 });
    s.run({ type: "placeOrder", account: A, marketId: ID, outcome: 0, action: "buy", priceBps: 6_000, size: 10n * SHARE, tif: "GTC" });
    s.run({ type: "placeOrder", account: B, marketId: ID, outcome: 1, action: "buy", priceBps: 4_000, size: 10n * SHARE, tif: "GTC" });
    s.run({ type: "proposeOutcome", account: C, marketId: ID, outcome: 1 }, CLOSE + HOUR);
    const t = CLOSE + 2 * HOUR;
    rejects(s.attempt({ type: "castBallot", account: VOTERS[0]!, marketId: ID, outcome: 0, salt: salt(1) }, t), "VOTE_NOT_OPEN");
    const ch = s.run({ type: "challenge", account: A, marketId: ID }, t);
    assert.deepEqual(
      ch.result.events.map((e) => e.to),
      ["challenge", "human_voting"],
    );
    rejects(s.attempt({ type: "challenge", account: B, marketId: ID }, t), "CHALLENGE_WINDOW_CLOSED");
    rejects(s.attempt({ type: "councilAct", member: COUNCIL, marketId: ID, action: "decide", outcome: 0, signature: "0x01" }, t), "COUNCIL_NOT_OPEN");
    const poor = ("0x" + "4".repeat(40)) as Address;
    rejects(s.attempt({ type: "castBallot", account: poor, marketId: ID, outcome: 0, salt: salt(9) }, t), "INSUFFICIENT_BALANCE");
    VOTERS.forEach((v, i) => {
      const b = s.run({ type: "castBallot", account: v, marketId: ID, outcome: i < 2 ? 0 : 1, salt: salt(i + 1) }, t + i);
      assert.equal(b.ops[0]!.type, "STAKE_LOCK");
      assert.equal(b.result.lifecycle.vote!.ballots, i + 1);
    });
    rejects(s.attempt({ type: "castBallot", account: VOTERS[0]!, marketId: ID, outcome: 1, salt: salt(7) }, t + 5), "ALREADY_VOTED");
    const end = voteEndsAt(t);
    const ended = s.run({ type: "advanceLifecycle" }, end);
    assert.deepEqual(
      ended.ops.filter((o) => o.type === "BALLOT_REVEAL").map((o) => o.type === "BALLOT_REVEAL" && [o.account, o.outcome]),
      VOTERS.map((v, i) => [v, i < 2 ? 0 : 1]),
    );
    rejects(s.attempt({ type: "councilAct", member: A, marketId: ID, action: "decide", outcome: 0, signature: "0x01" }, end + 1), "NOT_COUNCIL_MEMBER");
    const d = s.run({ type: "councilAct", member: COUNCIL, marketId: ID, action: "decide", outcome: 0, signature: "0xabcd" }, end + 1);
    assert.equal(d.result.lifecycle.state, "resolved");
    assert.equal(d.result.settlement!.paid, 10n * SHARE, "A's 10 YES shares pay 1 each");
    assert.deepEqual(escrows(s), [0n, 0n]);
    // The challenger was right: its bond returns plus half the creator's; voters 0 and 1 were right.
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).reserved, 0n);
    assert.ok(s.e.balance(VOTERS[0]!, COLLATERAL_ASSET).total > 100n * PM && s.e.balance(VOTERS[2]!, COLLATERAL_ASSET).total < 100n * PM);
    rejects(s.attempt({ type: "councilAct", member: COUNCIL, marketId: ID, action: "restart", signature: "0x01" }, end + 2), "COUNCIL_NOT_OPEN");
    const book = new BallotBook();
    const check = book.check(s.ops);
    assert.deepEqual([check.revealsChecked, check.failures], [3, []]);
    assert.equal(await s.e.ledger.root(), await replayRoot(s.ops));
  });

  it("refuses a proposal after creatorResolveBy (CREATOR_WINDOW_ELAPSED) and a cancel after it; cancel before voids and refunds", async () => {
    const s = world();
    rejects(s.attempt({ type: "proposeOutcome", account: C, marketId: ID, outcome: 0 }, creatorResolveBy(CLOSE) + 1), "CREATOR_WINDOW_ELAPSED");
    const before = stringifyJson(s.e.lifecycle(ID));
    rejects(s.attempt({ type: "proposeOutcome", account: C, marketId: ID, outcome: 5 }, CLOSE), "INVALID_PAYLOAD");
    assert.equal(stringifyJson(s.e.lifecycle(ID)), before, "a refusal changes nothing");
    s.run({ type: "lmsrTrade", account: A, marketId: ID, outcome: 1, direction: "BUY", shares: 7n * SHARE });
    const c = s.run({ type: "cancelMarket", marketId: ID });
    assert.equal(c.result.lifecycle.state, "void");
    assert.deepEqual(c.result.settlement, { verdict: "void", paid: (7n * SHARE) / 2n, fees: 0n, holders: 1 });
    assert.deepEqual(escrows(s), [0n, 0n]);
    rejects(s.attempt({ type: "cancelMarket", marketId: ID }), "WRONG_MARKET_STATE");
    rejects(s.attempt({ type: "resolveMarket", marketId: ID, winningOutcome: 0 }), "MARKET_CLOSED");
    assert.equal(await s.e.ledger.root(), await replayRoot(s.ops));
  });

  it("onchain lane: bonds and stakes move on the ledger; finality names the resolver's call", () => {
    const s = world({ lane: "onchain", outcomes: 3 });
    s.run({ type: "proposeOutcome", account: C, marketId: ID, outcome: 2 }, CLOSE + HOUR);
    const r = s.run({ type: "advanceLifecycle" }, councilReviewEndsAt(voteEndsAt(challengeBy(CLOSE + HOUR))));
    assert.deepEqual(r.result.settled, [
      { marketId: "30", settlement: { verdict: 2, paid: 0n, fees: 0n, holders: 0, onchainAction: { method: "resolve", outcome: 2 } } },
    ]);
    assert.deepEqual(
      r.ops.map((o) => o.type),
      ["MARKET_STATE", "BOND_RETURN"],
    );
    assert.equal(s.e.market(ID)!.status, "resolved");
    assert.equal(s.e.market(ID)!.winningOutcome, 2);
  });
});
