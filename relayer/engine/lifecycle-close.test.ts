/**
 * Markets with a lifecycle in the engine, milestone one: creation with a creator (bond and seed from its PM, refused
 * whole when it cannot pay), the onchain lane (lifecycle only), closing at closeTime through advanceLifecycle (resting
 * orders cancelled with market_closed reports, MARKET_STATE journaled, trades refused MARKET_CLOSED), the earliest
 * deadline, and the replay of every op to the engine's root.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { COLLATERAL_ASSET, bondEscrowOf, stringifyJson } from "../../decoder";
import { CREATOR_BOND, creatorMissedAt, creatorResolveBy } from "../lifecycle";
import { A, B, C, PM, SHARE, rejects, replayRoot, setup } from "./test-helpers";
import type { CreateMarketCommand } from "./types";

const HOUR = 3_600_000;
const ID = 20n;
const CLOSE = 1_000 + 10 * HOUR;

const create = (over: Partial<CreateMarketCommand> = {}): CreateMarketCommand => ({
  type: "createMarket",
  marketId: ID,
  pricing: "ORDERBOOK",
  outcomes: 2,
  feeModel: "notional-v1",
  takerFeeBps: 0,
  sellExitFeeBps: 0,
  winningsExitFeeBps: 0,
  creator: C,
  closeTime: CLOSE,
  ...over,
});

describe("engine lifecycle: creation and closing", () => {
  it("locks the creation bond (and an LMSR seed) from the creator, or refuses and changes nothing", async () => {
    const s = setup({ funds: 300n * PM });
    const before = stringifyJson(s.e.balances(C));
    // 300 PM cannot pay a 2,000 PM seed plus its 200 PM bond.
    rejects(s.attempt(create({ pricing: "LMSR", seed: 2_000n * PM })), "INSUFFICIENT_BALANCE");
    assert.equal(stringifyJson(s.e.balances(C)), before);
    assert.equal(s.e.market(ID), undefined);
    assert.equal(s.e.nextLifecycleDeadline(), undefined);
    rejects(s.attempt(create({ closeTime: 500 })), "INVALID_PAYLOAD", /future/);
    rejects(s.attempt(create({ pricing: "LMSR", outcomes: 3, seed: PM })), "INVALID_PAYLOAD", /binary/);
    rejects(s.attempt(create({ pricing: "LMSR", seed: 100n * PM, funder: A })), "INVALID_PAYLOAD", /funder = creator/);
    const r = s.run(create({ pricing: "LMSR", seed: 200n * PM }));
    assert.deepEqual(
      r.ops.map((o) => o.type),
      ["MARKET_SEED", "MARKET_STATE", "BOND_LOCK"],
    );
    const bond = 20n * PM; // 10% of the seed, above the 10 PM minimum
    assert.deepEqual(r.ops[2], { type: "BOND_LOCK", marketId: ID, account: C, amount: bond });
    assert.deepEqual(r.events, [{ marketId: "20", from: null, to: "open", at: 1_000, reason: "create" }]);
    const lc = r.result.lifecycle!;
    assert.equal(lc.state, "open");
    assert.equal(lc.creator, C);
    assert.equal(lc.closeTime, CLOSE);
    assert.equal(lc.creatorResolveBy, creatorResolveBy(CLOSE));
    assert.deepEqual(lc.bonds, { creation: bond, creator: bond, challenger: 0n });
    assert.equal(s.e.balance(C, COLLATERAL_ASSET).total, 300n * PM - 200n * PM - bond);
    assert.equal(s.e.balance(bondEscrowOf(ID), COLLATERAL_ASSET).total, bond);
    assert.equal(s.e.nextLifecycleDeadline(), CLOSE);
    assert.deepEqual(
      s.e.lifecycles().map((l) => l.marketId),
      ["20"],
    );
    assert.equal(await s.e.ledger.root(), await replayRoot(s.ops));
  });

  it("an onchain market has only its lifecycle and bond on the ledger; ternary is allowed there", () => {
    const s = setup();
    const r = s.run(create({ lane: "onchain", pricing: "LMSR", outcomes: 3, seed: 50n * PM }));
    assert.deepEqual(
      r.ops.map((o) => o.type),
      ["MARKET_STATE", "BOND_LOCK"],
    );
    assert.equal(r.result.lane, "onchain");
    assert.equal(r.result.lifecycle!.bonds.creation, CREATOR_BOND.minUnits);
    rejects(s.attempt({ type: "lmsrTrade", account: A, marketId: ID, outcome: 0, direction: "BUY", shares: SHARE }), "MARKET_NOT_FOUND");
    rejects(s.attempt(create({ marketId: 21n, lane: "onchain", creator: undefined })), "INVALID_PAYLOAD");
    rejects(s.attempt(create()), "MARKET_EXISTS");
  });

  it("closes at closeTime: resting orders cancelled (market_closed), MARKET_STATE journaled, trading refused MARKET_CLOSED", async () => {
    const s = setup();
    s.run(create());
    const bid = s.run({ type: "placeOrder", account: A, marketId: ID, outcome: 0, action: "buy", priceBps: 4_000, size: 10n * SHARE, tif: "GTC" });
    s.run({ type: "placeOrder", account: B, marketId: ID, outcome: 1, action: "buy", priceBps: 4_000, size: 10n * SHARE, tif: "GTC" });
    const order = { type: "placeOrder", account: A, marketId: ID, outcome: 0, action: "buy", priceBps: 6_000, size: SHARE, tif: "GTC" } as const;
    // From closeTime on a trade is refused even before the clock's command ran: one field check on the trade path.
    rejects(s.attempt(order, CLOSE), "MARKET_CLOSED");
    assert.equal(s.run({ type: "advanceLifecycle" }, CLOSE - 1).events, undefined, "nothing due before closeTime");
    const r = s.run({ type: "advanceLifecycle" }, CLOSE + 5);
    assert.deepEqual(r.result.events, [{ marketId: "20", from: "open", to: "closed", at: CLOSE, reason: "closeTimeReached" }]);
    assert.deepEqual(r.events, r.result.events);
    assert.deepEqual(r.ops, [{ type: "MARKET_STATE", marketId: ID, state: "closed", outcome: 255 }]);
    assert.deepEqual(
      r.reports.map((x) => [x.account, x.kind, x.reason, x.orderId]),
      [
        [A, "cancelled", "market_closed", bid.result.orderId],
        [B, "cancelled", "market_closed", r.reports[1]!.orderId],
      ],
    );
    assert.equal(s.e.balance(A, COLLATERAL_ASSET).reserved, 0n);
    assert.equal(s.e.market(ID)!.status, "closed");
    assert.equal(s.e.lifecycle(ID)!.state, "closed");
    rejects(s.attempt(order, CLOSE + 6), "MARKET_CLOSED");
    assert.equal(s.e.nextLifecycleDeadline(), creatorResolveBy(CLOSE) + 1, "next: the creator's window is missed");
    assert.equal(await s.e.ledger.root(), await replayRoot(s.ops));
  });

  it("keeps the earliest deadline exact when markets share one (creations, closes, a refused creation)", () => {
    const s = setup({ funds: 10_000n * PM });
    // What a scan of every market finds: an open market's closeTime, a closed one's first instant past its window.
    const scanned = () => {
      const due = s.e.lifecycles().map((l) => (l.state === "open" ? l.closeTime : creatorMissedAt(l.closeTime)));
      return due.length === 0 ? undefined : Math.min(...due);
    };
    const closes = [CLOSE, CLOSE, CLOSE + HOUR, CLOSE, CLOSE - HOUR, CLOSE - HOUR, CLOSE + 2 * HOUR];
    closes.forEach((closeTime, i) => {
      s.run(create({ marketId: ID + BigInt(i), closeTime }));
      assert.equal(s.e.nextLifecycleDeadline(), scanned(), `after creation ${i}`);
    });
    // A creation refused whole (its market id is taken) leaves the deadline as it was.
    rejects(s.attempt(create({ marketId: ID, closeTime: CLOSE - 2 * HOUR })), "MARKET_EXISTS");
    assert.equal(s.e.nextLifecycleDeadline(), CLOSE - HOUR);
    for (const at of [CLOSE - HOUR, CLOSE, CLOSE + HOUR, CLOSE + 2 * HOUR]) {
      s.run({ type: "advanceLifecycle" }, at);
      assert.equal(s.e.nextLifecycleDeadline(), scanned(), `after the clock at ${at}`);
    }
    assert.equal(s.e.nextLifecycleDeadline(), creatorMissedAt(CLOSE - HOUR));
  });
});
