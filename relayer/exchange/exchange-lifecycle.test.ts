/**
 * The exchange drives markets' lives: one timer for the earliest lifecycle deadline submits advanceLifecycle through
 * the journal (its events reach onLifecycleEvents), the operator's time advance calls advanceLifecycleDue after moving
 * the clock, and a restart rebuilds every lifecycle (state, ballots' salts, receipts) from the journal.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Address, Hex } from "viem";
import { openTestDatabase } from "../../test/support/db";
import { manualClock } from "../clock";
import type { Database } from "../db/client";
import type { LifecycleEvent } from "../engine";
import { challengeBy, voteEndsAt, councilReviewEndsAt } from "../lifecycle";
import { Exchange } from "./exchange";
import { expectAccepted, runEngineConfig, traderOf } from "./trading-run";

const HOUR = 3_600_000;
const creator = traderOf(0);
const voters = [1, 2, 3].map(traderOf);
const salt = (i: number): Hex => `0x${(i + 1).toString(16).padStart(64, "0")}`;

describe("Exchange: market lifecycles", () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it("the lifecycle timer closes a market at closeTime through the journal, and a restart rebuilds every lifecycle", async () => {
    const clock = manualClock();
    const t0 = clock.now();
    const ex = await Exchange.open({ db, clock, engineConfig: runEngineConfig, expiryTimer: false });
    const seen: LifecycleEvent[] = [];
    const closed = new Promise<void>((resolve) =>
      ex.onLifecycleEvents((events) => {
        seen.push(...events);
        if (events.some((e) => e.to === "closed")) resolve();
      }),
    );
    for (const a of [creator, ...voters]) {
      expectAccepted(await ex.submit({ type: "openAccount", account: a, signupAt: t0 }));
      expectAccepted(await ex.submit({ type: "credit", account: a, amount: 1_000_000_000n, reason: "GRANT" }));
    }
    expectAccepted(await ex.submit({ type: "setCouncil", members: [traderOf(9)] }));
    const create = {
      type: "createMarket",
      pricing: "LMSR",
      outcomes: 2,
      feeModel: "notional-v1",
      takerFeeBps: 0,
      sellExitFeeBps: 0,
      winningsExitFeeBps: 100,
      seed: 100_000_000n,
      creator,
    } as const;
    // Market 1 closes 20 ms (of the clock) from now: the armed timer fires once the clock is there.
    expectAccepted(await ex.submit({ ...create, marketId: 1n, closeTime: t0 + 20 }));
    expectAccepted(await ex.submit({ ...create, marketId: 2n, closeTime: t0 + HOUR }));
    expectAccepted(await ex.submit({ type: "lmsrTrade", account: voters[0]!, marketId: 1n, outcome: 0, direction: "BUY", shares: 5_000_000n }));
    assert.equal(ex.engine.nextLifecycleDeadline(), t0 + 20);
    clock.advance(20);
    await closed;
    assert.equal(ex.engine.lifecycle(1n)!.state, "closed");
    assert.deepEqual(
      seen.filter((e) => e.to === "closed").map((e) => [e.marketId, e.at]),
      [["1", t0 + 20]],
    );
    const refused = await ex.submit({ type: "lmsrTrade", account: voters[0]!, marketId: 1n, outcome: 0, direction: "BUY", shares: 1_000_000n });
    assert.equal(refused.ok ? "accepted" : refused.code, "MARKET_CLOSED");

    // Market 2: proposed, challenged, voted; the operator's time advance moves the clock and calls advanceLifecycleDue.
    clock.advance(HOUR + HOUR);
    assert.equal(await ex.advanceLifecycleDue(), true);
    const proposedAt = clock.now();
    expectAccepted(await ex.submit({ type: "proposeOutcome", account: creator, marketId: 2n, outcome: 1 }));
    clock.advance(HOUR);
    expectAccepted(await ex.submit({ type: "challenge", account: voters[2]!, marketId: 2n }));
    const opened = clock.now();
    for (const [i, v] of voters.entries())
      expectAccepted(await ex.submit({ type: "castBallot", account: v as Address, marketId: 2n, outcome: i === 0 ? 0 : 1, salt: salt(i) }));
    clock.set(voteEndsAt(opened));
    assert.equal(await ex.advanceLifecycleDue(), true);
    assert.equal(ex.engine.lifecycle(2n)!.state, "council_review");
    assert.ok(challengeBy(proposedAt) > opened);
    const views = ex.engine.lifecycles();
    const root = await ex.engine.ledger.root();
    await ex.close();

    // Restart: the journal rebuilds the same lifecycles (the ballots' salts included: the council's silence reveals
    // nothing new, but settles the stakes the same way) and the same root.
    const again = await Exchange.open({ db, clock, engineConfig: runEngineConfig, expiryTimer: false, lifecycleTimer: false });
    assert.deepEqual(again.engine.lifecycles(), views);
    assert.equal(await again.engine.ledger.root(), root);
    clock.set(councilReviewEndsAt(voteEndsAt(opened)));
    assert.equal(await again.advanceLifecycleDue(), true);
    const final = again.engine.lifecycle(2n)!;
    assert.deepEqual([final.state, final.verdict], ["resolved", 1]);
    assert.equal(again.engine.market(2n)!.status, "resolved");
    assert.equal(await again.advanceLifecycleDue(), false, "nothing due");
    await again.close();
  });
});
