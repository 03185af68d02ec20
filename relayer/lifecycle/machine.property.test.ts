/**
 * The state machine and the money together, on random lives: every state change is a row of the published table,
 * every transfer is positive, the record's escrows always equal what the transfers put in and took out, and every
 * market ends final with both escrows at exactly zero.
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import fc from "fast-check";
import { deadlinesOf } from "./deadlines";
import { dueTransitions } from "./due";
import { cancelMarket, castBallot, challenge, councilDecide, councilRestart, createLifecycle, declareMia, propose, type LifecycleResult } from "./operations";
import { CHALLENGE_SPLIT, PM_UNIT, bpsOf } from "./rules";
import { escrowBalances, isTerminal, type MarketLifecycle, type Verdict } from "./states";
import type { LifecycleStep } from "./steps";
import { CHALLENGER, CREATOR, DAY, HOUR, KEEPER, T0, VOTERS, account, must } from "./test-support/fixtures";
import { MARKET_TRANSITIONS } from "./transitions";

/** Replays steps on a ledger of balances (escrows, accounts, treasury) and checks each against the table. */
class Books {
  readonly balances = new Map<string, bigint>();
  readonly steps: LifecycleStep[] = [];
  apply(steps: readonly LifecycleStep[]): void {
    for (const s of steps) {
      if (s.from !== null && s.from !== s.to) {
        assert.ok(
          MARKET_TRANSITIONS.some((t) => t.from === s.from && t.to === s.to && t.via === s.via),
          `${s.from} -> ${s.to} via ${s.via} is not in the table`,
        );
      }
      const last = this.steps.at(-1);
      if (last) assert.ok(s.at >= last.at, "steps come in time order");
      for (const t of s.transfers) {
        assert.ok(t.amount > 0n, `${t.op} moves ${t.amount}`);
        this.move(t.from, -t.amount);
        this.move(t.to, t.amount);
      }
      this.steps.push(s);
    }
  }
  of(name: string): bigint {
    return this.balances.get(name.toLowerCase()) ?? 0n;
  }
  private move(name: string, delta: bigint) {
    this.balances.set(name.toLowerCase(), this.of(name) + delta);
    if (name === "bond_escrow" || name === "vote_escrow") assert.ok(this.of(name) >= 0n, `${name} went negative`);
  }
  /** The record's view of the escrows equals what the transfers left in them. */
  check(m: MarketLifecycle) {
    assert.deepEqual(escrowBalances(m), { bond: this.of("bond_escrow"), vote: this.of("vote_escrow") });
    const total = [...this.balances.values()].reduce((a, b) => a + b, 0n);
    assert.equal(total, 0n, "every transfer takes what it gives");
  }
}

function drive(m: MarketLifecycle, books: Books, r: LifecycleResult): MarketLifecycle {
  if (!r.ok) return m;
  books.apply(r.steps);
  books.check(r.market);
  return r.market;
}

const verdictOf = (outcomes: number) => fc.oneof(fc.integer({ min: 0, max: outcomes - 1 }), fc.constant<Verdict>("void"));

const scenario = fc.integer({ min: 2, max: 3 }).chain((outcomes) =>
  fc.record({
    outcomes: fc.constant(outcomes),
    seed: fc.option(fc.bigInt({ min: 1n, max: 20_000n * PM_UNIT }), { nil: null }),
    path: fc.constantFrom("unchallenged", "challenged", "challenged_by_creator", "mia_keeper", "mia_clock", "cancel"),
    proposal: verdictOf(outcomes),
    quorum: fc.constantFrom(1, 3, 7),
    ballots: fc.array(fc.integer({ min: 0, max: outcomes - 1 }), { maxLength: 9 }),
    council: fc.oneof(fc.constant<"silent" | "restart">("silent"), fc.constant<"silent" | "restart">("restart"), verdictOf(outcomes)),
    secondBallots: fc.array(fc.integer({ min: 0, max: outcomes - 1 }), { maxLength: 9 }),
  }),
);

describe("a market's life on random paths", () => {
  it("ends final with both escrows at zero, moving money only along the table", () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const close = T0 + DAY;
        const books = new Books();
        const created = must(createLifecycle({ creator: CREATOR, outcomes: sc.outcomes, openTime: T0, closeTime: close, seed: sc.seed, at: T0 }));
        books.apply(created.steps);
        let m = created.market;
        const q = sc.quorum;
        const t = (ms: number) => ({ at: ms, quorum: q });
        const challenger = sc.path === "challenged_by_creator" ? CREATOR : CHALLENGER;
        if (sc.path === "cancel") m = drive(m, books, cancelMarket(m, t(close - HOUR)));
        if (sc.path === "unchallenged" || sc.path.startsWith("challenged")) {
          m = drive(m, books, propose(m, { account: CREATOR, verdict: sc.proposal, ...t(close + HOUR) }));
          if (sc.path !== "unchallenged") m = drive(m, books, challenge(m, { account: challenger, ...t(close + 2 * HOUR) }));
        }
        if (sc.path === "mia_keeper") m = drive(m, books, declareMia(m, { account: KEEPER, ...t(deadlinesOf(m).creatorResolveBy + HOUR / 2) }));
        if (sc.path === "mia_clock") m = drive(m, books, { ok: true, ...dueTransitions(m, deadlinesOf(m).creatorResolveBy + 2 * HOUR, q) });
        const vote = (outcomes: number[]) => {
          const opened = m.vote?.openedAt ?? 0;
          outcomes.forEach((outcome, i) => (m = drive(m, books, castBallot(m, { voter: VOTERS[i], outcome, ...t(opened + HOUR) }))));
        };
        if (m.state === "human_voting") {
          vote(sc.ballots);
          const reviewAt = deadlinesOf(m).humanVoteEndsAt! + HOUR;
          if (sc.council === "restart") {
            m = drive(m, books, councilRestart(m, t(reviewAt)));
            vote(sc.secondBallots);
          } else if (sc.council !== "silent") {
            m = drive(m, books, councilDecide(m, { verdict: sc.council, ...t(reviewAt) }));
          }
        }
        m = drive(m, books, { ok: true, ...dueTransitions(m, T0 + 400 * DAY, q) });
        assert.ok(isTerminal(m.state), `ended in ${m.state}`);
        assert.deepEqual(escrowBalances(m), { bond: 0n, vote: 0n });
        assert.equal(books.of("bond_escrow"), 0n);
        assert.equal(books.of("vote_escrow"), 0n);
        assert.ok(books.of("treasury") >= 0n);

        // A challenger that was right ends with half the creator's bond; one that was wrong loses its bond.
        if (sc.path === "challenged" && m.proposal && m.challenger) {
          const silentNeutral = books.steps.at(-1)?.via === "councilSilent" && books.steps.at(-1)?.tally?.kind !== "unique";
          const b = m.creationBond;
          const expected = silentNeutral ? 0n : m.verdict === m.proposal.verdict ? -b : bpsOf(b, CHALLENGE_SPLIT.winnerBps);
          assert.equal(books.of(CHALLENGER), expected);
        }
        // Voters never lose more than their stake, and only lose it when the session bound to another outcome.
        for (const v of VOTERS) assert.ok(books.of(v) >= -10n * PM_UNIT);
      }),
      { numRuns: 400 },
    );
  });

  it("refuses without a trace and keeps the books under any order of commands at any times", () => {
    const command = fc.record({
      kind: fc.constantFrom("propose", "challenge", "declareMia", "castBallot", "councilDecide", "councilRestart", "cancel", "tick"),
      who: fc.integer({ min: 0, max: 5 }),
      outcome: fc.integer({ min: -1, max: 2 }),
      dt: fc.constantFrom(0, 1, HOUR, 12 * HOUR, DAY, 2 * DAY, 3 * DAY),
    });
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), fc.constantFrom(3, 7), (commands, q) => {
        const books = new Books();
        const created = must(createLifecycle({ creator: CREATOR, outcomes: 2, openTime: T0, closeTime: T0 + DAY, seed: 500n * PM_UNIT, at: T0 }));
        books.apply(created.steps);
        let m = created.market;
        let at = T0;
        for (const c of commands) {
          at += c.dt;
          const who = c.who === 0 ? CREATOR : account(0x300 + c.who);
          const verdict: Verdict = c.outcome < 0 ? "void" : c.outcome;
          const before = structuredClone(m);
          const r =
            c.kind === "propose"
              ? propose(m, { account: who, verdict, at, quorum: q })
              : c.kind === "challenge"
                ? challenge(m, { account: who, at, quorum: q })
                : c.kind === "declareMia"
                  ? declareMia(m, { account: who, at, quorum: q })
                  : c.kind === "castBallot"
                    ? castBallot(m, { voter: who, outcome: c.outcome, at, quorum: q })
                    : c.kind === "councilDecide"
                      ? councilDecide(m, { verdict, at, quorum: q })
                      : c.kind === "councilRestart"
                        ? councilRestart(m, { at, quorum: q })
                        : c.kind === "cancel"
                          ? cancelMarket(m, { at, quorum: q })
                          : ({ ok: true, ...dueTransitions(m, at, q) } as const);
          assert.deepEqual(m, before, "a command never mutates the record it is given");
          m = drive(m, books, r);
        }
        m = drive(m, books, { ok: true, ...dueTransitions(m, at + 400 * DAY, q) });
        assert.ok(isTerminal(m.state));
        books.check(m);
        assert.deepEqual(escrowBalances(m), { bond: 0n, vote: 0n });
      }),
      { numRuns: 300 },
    );
  });
});
