/**
 * Property test of markets' lives in the engine: random markets (order book or LMSR, committed or on-chain) with
 * random holders, orders and LMSR trades are driven through every path of the graph (unchallenged, challenged and
 * upheld or overturned, MIA with or without a keeper, deadlock, no quorum, council override, council restart, a
 * proposal of void, cancel), with refused commands sprinkled in. After every command: no negative balance, and the
 * money identity (every non-supply PM balance, escrows, pools and treasury included, equals the documented credits
 * minus the collateral the supply holds for outstanding order-book sets and the void's rounding dust); a refused
 * command changes nothing. At the end: the expected final state and verdict, both escrows and the pool at zero, every
 * ballot revealed and checked by the decoder's BallotBook, and the journal replayed through PMJ5 gives the root.
 * Part-way through each life, at a drawn command, the engine is swapped for one restored from its snapshot (a restart).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { Address, Hex } from "viem";
import {
  BallotBook,
  COLLATERAL_ASSET,
  CreditReason,
  SUPPLY_ACCOUNT,
  bondEscrowOf,
  outcomeAssetId,
  poolAccountOf,
  stringifyJson,
  voteEscrowOf,
  type JournalOp,
} from "../../decoder";
import { challengeBy, creatorResolveBy, keeperWindowEndsAt, tally, voteEndsAt, type Verdict } from "../lifecycle";
import { Engine } from "./engine";
import { config, replayRoot, restored } from "./test-helpers";
import type { Command } from "./types";

const acct = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const CREATOR = acct(0xc0);
const CHALLENGER = acct(0xc1);
const KEEPER = acct(0xc2);
const MEMBER = acct(0xc3);
const HOLDERS = [1, 2, 3, 4].map((i) => acct(0xa0 + i));
const VOTERS = [1, 2, 3, 4, 5].map((i) => acct(0xb0 + i));
const ID = 7n;
const HOUR = 3_600_000;
const T0 = 1_000;
const CLOSE = T0 + 10 * HOUR;
const PATHS = ["unchallenged", "upheld", "overturned", "mia", "miaKeeper", "deadlock", "noQuorum", "override", "restart", "voidProposal", "cancel"] as const;

const tradeArb = fc.record({
  who: fc.nat(3),
  outcome: fc.nat(2),
  buy: fc.boolean(),
  size: fc.integer({ min: 1, max: 40 }),
  price: fc.integer({ min: 20, max: 80 }),
});
const caseArb = fc.record({
  path: fc.constantFrom(...PATHS),
  lmsr: fc.boolean(),
  onchain: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  ternary: fc.boolean(),
  trades: fc.array(tradeArb, { maxLength: 14 }),
  proposal: fc.nat(2),
  early: fc.boolean(),
  other: fc.nat(2),
  votes: fc.array(fc.nat(2), { minLength: 5, maxLength: 5 }),
  override: fc.constantFrom<Verdict>(0, 1, "void"),
  /** Before this command (counted from the first), the engine is swapped for one restored from its snapshot. */
  restoreAt: fc.nat(30),
});

const salt = (n: number): Hex => `0x${n.toString(16).padStart(64, "0")}`;

describe("engine lifecycle property: every path of the graph", () => {
  it("conserves money, never goes negative, ends with empty escrows, and replays to the root", async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(caseArb, async (k) => {
        let e = new Engine(config());
        let commands = 0;
        const ops: JournalOp[] = [];
        const committed = !k.onchain;
        const outcomes = k.onchain && k.ternary && k.lmsr ? 3 : 2;
        let credits = 0n;
        let voidDust = 0n;
        let ballots = 0;
        const run = (c: Command, at: number, must = true) => {
          if (commands++ === k.restoreAt) e = restored(e);
          const before = must ? null : stringifyJson([e.lifecycles(), e.accounts().map((a) => e.balances(a))]);
          const r = e.apply(c, at);
          if (r.ok) {
            // Grants are new money; an order book's exit fee (a CREDIT, reason FEE_SWEEP) is paid from the set collateral.
            for (const op of r.ops) if (op.type === "CREDIT" && op.assetId === COLLATERAL_ASSET && op.reason !== CreditReason.FEE_SWEEP) credits += op.amount;
            const sets = committed && !k.lmsr ? setsOutstanding() : 0n;
            const refunds = r.ops.reduce((s, op) => (op.type === "VOID_REFUND" ? s + op.refund : s), 0n);
            if (refunds > 0n && !k.lmsr) voidDust += setsBefore - refunds;
            ops.push(...r.ops);
            ballots += r.ops.filter((op) => op.type === "STAKE_LOCK").length;
            setsBefore = sets;
          } else if (must) assert.fail(`${c.type} refused: ${r.code} ${r.message}`);
          else assert.equal(stringifyJson([e.lifecycles(), e.accounts().map((a) => e.balances(a))]), before, `refused ${c.type} changed the state`);
          check();
          return r;
        };
        const refused = (c: Command, at: number) => assert.equal(run(c, at, false).ok, false, `${c.type} was accepted`);
        const setsOutstanding = () => e.accounts().reduce((s, a) => s + (a === SUPPLY_ACCOUNT ? 0n : e.balance(a, outcomeAssetId(ID, 0)).total), 0n);
        let setsBefore = 0n;
        const check = () => {
          let sum = 0n;
          for (const a of e.accounts()) {
            for (const b of e.balances(a)) if (a !== SUPPLY_ACCOUNT) assert.ok(b.total >= 0n && b.available >= 0n, `${a} negative in ${b.assetId}`);
            if (a !== SUPPLY_ACCOUNT) sum += e.balance(a, COLLATERAL_ASSET).total;
          }
          const sets = committed && !k.lmsr && e.market(ID)?.status !== "resolved" && e.market(ID)?.status !== "voided" ? setsOutstanding() : 0n;
          assert.equal(sum, credits - sets - voidDust, "money identity");
        };

        for (const a of [CREATOR, CHALLENGER, KEEPER, ...HOLDERS, ...VOTERS]) run({ type: "credit", account: a, amount: 1_000_000_000n, reason: "GRANT" }, T0);
        run({ type: "setCouncil", members: [MEMBER] }, T0);
        run(
          {
            type: "createMarket",
            marketId: ID,
            pricing: k.lmsr ? "LMSR" : "ORDERBOOK",
            outcomes,
            feeModel: "notional-v1",
            takerFeeBps: 100,
            sellExitFeeBps: 100,
            winningsExitFeeBps: 200,
            ...(k.lmsr ? { seed: 200_000_000n } : {}),
            creator: CREATOR,
            closeTime: CLOSE,
            lane: k.onchain ? "onchain" : "committed",
          },
          T0,
        );
        k.trades.forEach((t, i) => {
          const account = HOLDERS[t.who]!;
          const at = T0 + 1 + i;
          if (!committed) return refused({ type: "lmsrTrade", account, marketId: ID, outcome: 0, direction: "BUY", shares: 1_000_000n }, at);
          if (k.lmsr) {
            const outcome = (t.outcome % 2) as 0 | 1;
            const held = e.balance(account, outcomeAssetId(ID, outcome)).total;
            if (!t.buy && held > 0n) return run({ type: "lmsrTrade", account, marketId: ID, outcome, direction: "SELL", shares: held }, at);
            return run({ type: "lmsrTrade", account, marketId: ID, outcome, direction: "BUY", shares: BigInt(t.size) * 250_000n }, at);
          }
          run(
            {
              type: "placeOrder",
              account,
              marketId: ID,
              outcome: (t.outcome % 2) as 0 | 1,
              action: "buy",
              priceBps: t.price * 100,
              size: BigInt(t.size) * 10_000n,
              tif: "GTC",
            },
            at,
            false,
          );
        });
        refused({ type: "castBallot", account: VOTERS[0]!, marketId: ID, outcome: 0, salt: salt(1) }, T0 + 100);

        const p: Verdict = k.path === "voidProposal" ? "void" : k.proposal % outcomes;
        const proposedAt = k.early ? T0 + HOUR : CLOSE + HOUR;
        let expected: { state: string; verdict: Verdict } | null = null;
        const castAll = (outs: readonly number[], at: number, session: number) =>
          outs.forEach((o, i) =>
            run({ type: "castBallot", account: VOTERS[i]!, marketId: ID, outcome: o % outcomes, salt: salt(session * 10 + i + 1) }, at + i),
          );
        const silence = (outs: readonly number[]) => {
          const r = tally(
            outs.map((o) => ({ outcome: o % outcomes })),
            outcomes,
            e.lifecycle(ID)!.vote!.quorum,
          );
          return r.kind === "unique" ? r.outcome : ("void" as const);
        };
        const end = CLOSE + 100 * 24 * HOUR;

        if (k.path === "cancel") {
          run({ type: "cancelMarket", marketId: ID }, k.early ? T0 + HOUR : CLOSE + HOUR);
          expected = { state: "void", verdict: "void" };
        } else if (k.path === "mia" || k.path === "miaKeeper") {
          refused({ type: "proposeOutcome", account: CREATOR, marketId: ID, outcome: 0 }, creatorResolveBy(CLOSE) + 1);
          refused({ type: "declareMia", account: CREATOR, marketId: ID }, creatorResolveBy(CLOSE) + 2);
          const opened = k.path === "miaKeeper" ? creatorResolveBy(CLOSE) + 2 : keeperWindowEndsAt(CLOSE);
          if (k.path === "miaKeeper") run({ type: "declareMia", account: KEEPER, marketId: ID }, opened);
          else run({ type: "advanceLifecycle" }, opened);
          const outs = k.votes.slice(0, 3);
          castAll(outs, opened + 1, 1);
          expected = { state: "", verdict: silence(outs) };
        } else {
          refused({ type: "proposeOutcome", account: HOLDERS[0]!, marketId: ID, outcome: p }, proposedAt);
          run({ type: "proposeOutcome", account: CREATOR, marketId: ID, outcome: p }, proposedAt);
          if (committed) refused({ type: "lmsrTrade", account: HOLDERS[0]!, marketId: ID, outcome: 0, direction: "BUY", shares: 1_000_000n }, proposedAt + 1);
          if (k.path === "unchallenged" || k.path === "voidProposal") {
            refused({ type: "challenge", account: CHALLENGER, marketId: ID }, challengeBy(proposedAt));
            expected = { state: "", verdict: p };
          } else {
            const opened = proposedAt + HOUR;
            run({ type: "challenge", account: CHALLENGER, marketId: ID }, opened);
            const other = p === "void" ? 0 : (p + 1 + (k.other % (outcomes - 1))) % outcomes;
            const outs =
              k.path === "upheld"
                ? [p as number, p as number, other]
                : k.path === "overturned"
                  ? [other, other, p as number]
                  : k.path === "deadlock"
                    ? [p as number, p as number, other, other]
                    : k.path === "noQuorum"
                      ? [other, p as number]
                      : k.votes.slice(0, 3);
            castAll(outs, opened + 1, 1);
            refused({ type: "castBallot", account: VOTERS[0]!, marketId: ID, outcome: 0, salt: salt(99) }, opened + 10);
            refused({ type: "councilAct", member: MEMBER, marketId: ID, action: "decide", outcome: 0, signature: "0x01" }, opened + 11);
            const ended = voteEndsAt(opened);
            run({ type: "advanceLifecycle" }, ended);
            refused({ type: "councilAct", member: KEEPER, marketId: ID, action: "decide", outcome: 0, signature: "0x01" }, ended + 1);
            if (k.path === "override") {
              const v = k.override === "void" ? "void" : k.override % outcomes;
              run({ type: "councilAct", member: MEMBER, marketId: ID, action: "decide", outcome: v, signature: "0xab" }, ended + 1);
              expected = { state: "", verdict: v };
            } else if (k.path === "restart") {
              run({ type: "councilAct", member: MEMBER, marketId: ID, action: "restart", signature: "0xab" }, ended + 1);
              const again = k.votes.slice(0, 3);
              castAll(again, ended + 2, 2);
              expected = { state: "", verdict: silence(again) };
            } else expected = { state: "", verdict: silence(outs) };
          }
        }
        run({ type: "advanceLifecycle" }, end);
        refused({ type: "collectCreatorFunds", account: HOLDERS[0]!, marketId: ID }, end + 1);
        run({ type: "collectCreatorFunds", account: CREATOR, marketId: ID }, end + 1);

        const lc = e.lifecycle(ID)!;
        const state = expected.verdict === "void" ? "void" : "resolved";
        assert.deepEqual([lc.state, lc.verdict], [expected.state || state, expected.verdict], k.path);
        for (const a of [bondEscrowOf(ID), voteEscrowOf(ID), poolAccountOf(ID)]) assert.equal(e.balance(a, COLLATERAL_ASSET).total, 0n, `${a} not empty`);
        if (committed)
          for (const h of HOLDERS) for (const i of [0, 1] as const) assert.equal(e.balance(h, outcomeAssetId(ID, i)).total, 0n, "every share redeemed");
        const revealed = new BallotBook().check(ops);
        assert.deepEqual([revealed.revealsChecked, revealed.failures], [ballots, []]);
        assert.equal(await replayRoot(ops), await e.ledger.root());
        restored(e); // a final market (settlement, receipts, what the creator collected) restores too
        seen.set(k.path, (seen.get(k.path) ?? 0) + 1);
      }),
      {
        numRuns: Number(process.env.LIFECYCLE_PROPERTY_RUNS ?? 220),
        seed: Number(process.env.LIFECYCLE_PROPERTY_SEED ?? 20_261_125),
        endOnFailure: true,
        includeErrorInReport: true,
      },
    );
    console.log(`# lifecycle property: runs per path ${JSON.stringify(Object.fromEntries(seen))}`);
    for (const path of PATHS) assert.ok((seen.get(path) ?? 0) >= 5, `path ${path} ran ${seen.get(path) ?? 0} times`);
  });
});
