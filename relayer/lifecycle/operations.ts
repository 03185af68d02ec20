/**
 * The lifecycle commands. Each first applies the clock transitions due by the command's `at` (dueTransitions),
 * then its guard, then its move; it returns the new record with every step (the clock's first, then its own), or a
 * refusal, in which case nothing changed: the caller keeps its record and journals nothing.
 *
 * `quorum` in every input is what a vote session opened by this command (or by the clock on its way) needs:
 * quorumFor(the market's locked collateral, the collateral's threshold).
 */
import type { Address } from "viem";
import { MAX_OUTCOMES } from "../../decoder/assets";
import { dueTransitions } from "./due";
import { creationBond } from "./fund-flows";
import { canCancel, canCastBallot, canChallenge, canCouncilAct, canDeclareMia, canPropose } from "./guards";
import type { LifecycleRefusal } from "./refusals";
import { VOTE_STAKE_UNITS } from "./rules";
import { isValidVerdict, type MarketLifecycle, type Verdict } from "./states";
import { finalize, openSession, slashMissingCreator, step, type Advanced, type LifecycleStep } from "./steps";
import type { StakeLock } from "./transfers";
import { refundSession } from "./vote-settlement";

export type LifecycleResult = ({ ok: true } & Advanced) | { ok: false; refusal: LifecycleRefusal };

/** When a command acts, and the quorum of a session it may open. */
export interface CommandTime {
  at: number;
  quorum: number;
}

export interface CreateInput {
  creator: Address;
  /** 2 or 3 (the committed ledger is binary; ternary markets live on the on-chain lane). */
  outcomes: number;
  openTime: number;
  closeTime: number;
  /** The LMSR seed (PM units, or the on-chain collateral's units counted 1:1); null for an ORDERBOOK market. */
  seed: bigint | null;
  at: number;
}

/** A market's life begins: the creation bond (from the seed) is locked in the bond escrow. */
export function createLifecycle(input: CreateInput): LifecycleResult {
  if (!Number.isInteger(input.outcomes) || input.outcomes < 2 || input.outcomes > MAX_OUTCOMES)
    return refuse({ code: "INVALID_TERMS", reason: `outcomes must be 2..${MAX_OUTCOMES}` });
  if (!(input.closeTime > input.openTime)) return refuse({ code: "INVALID_TERMS", reason: "closeTime must be after openTime" });
  if (input.seed !== null && input.seed <= 0n) return refuse({ code: "INVALID_TERMS", reason: "seed must be positive" });
  const bond = creationBond(input.seed);
  const market: MarketLifecycle = {
    state: "open",
    creator: input.creator,
    outcomes: input.outcomes,
    openTime: input.openTime,
    closeTime: input.closeTime,
    creationBond: bond,
    bonds: { creator: bond, challenger: 0n },
    proposal: null,
    challenger: null,
    vote: null,
    voterPool: 0n,
    verdict: null,
  };
  const lock = { op: "BOND_LOCK", from: input.creator, to: "bond_escrow", bondOf: input.creator, amount: bond } as const;
  return { ok: true, market, steps: [step("create", input.at, null, "open", [lock])] };
}

/** The creator proposes an outcome or `void`; trading stops and the challenge window opens. */
export function propose(m: MarketLifecycle, cmd: CommandTime & { account: Address; verdict: Verdict }): LifecycleResult {
  return act(
    m,
    cmd,
    (cur) => canPropose(cur, cmd.account, cmd.verdict, cmd.at),
    (cur) => {
      const market: MarketLifecycle = { ...cur, state: "creator_proposal", proposal: { verdict: cmd.verdict, at: cmd.at } };
      return { market, steps: [step("propose", cmd.at, cur.state, "creator_proposal")] };
    },
  );
}

/** A challenger posts a bond equal to the creation bond; the challenge opens the vote session at once. */
export function challenge(m: MarketLifecycle, cmd: CommandTime & { account: Address }): LifecycleResult {
  return act(
    m,
    cmd,
    (cur) => canChallenge(cur, cmd.at),
    (cur) => {
      const lock = { op: "BOND_LOCK", from: cmd.account, to: "bond_escrow", bondOf: cmd.account, amount: cur.creationBond } as const;
      const challenged: MarketLifecycle = { ...cur, state: "challenge", challenger: cmd.account, bonds: { ...cur.bonds, challenger: cur.creationBond } };
      const voting = openSession(challenged, cmd.at, cmd.quorum);
      return {
        market: voting,
        steps: [
          step("challenge", cmd.at, "creator_proposal", "challenge", [lock]),
          step("challenge", cmd.at, "challenge", "human_voting", [], { session: voting.vote!.session }),
        ],
      };
    },
  );
}

/** A keeper declares the missing creator: the bond is slashed (keeper share to the keeper) and the vote opens. */
export function declareMia(m: MarketLifecycle, cmd: CommandTime & { account: Address }): LifecycleResult {
  return act(
    m,
    cmd,
    (cur) => canDeclareMia(cur, cmd.account, cmd.at),
    (cur) => {
      const slashed = slashMissingCreator(cur, cmd.account);
      const voting = openSession(slashed.market, cmd.at, cmd.quorum);
      return { market: voting, steps: [step("declareMia", cmd.at, "creator_mia", "human_voting", slashed.transfers, { session: voting.vote!.session })] };
    },
  );
}

/** A voter's ballot with its stake (`economy.voting.unverifiedStakePm`); the state does not move. */
export function castBallot(m: MarketLifecycle, cmd: CommandTime & { voter: Address; outcome: number }): LifecycleResult {
  return act(
    m,
    cmd,
    (cur) => canCastBallot(cur, cmd.voter, cmd.outcome, cmd.at),
    (cur) => {
      const vote = cur.vote!;
      const lock: StakeLock = { op: "STAKE_LOCK", from: cmd.voter, to: "vote_escrow", session: vote.session, amount: VOTE_STAKE_UNITS };
      const market: MarketLifecycle = {
        ...cur,
        vote: { ...vote, ballots: [...vote.ballots, { voter: cmd.voter, outcome: cmd.outcome, stake: VOTE_STAKE_UNITS }] },
      };
      return { market, steps: [step("castBallot", cmd.at, cur.state, cur.state, [lock], { session: vote.session })] };
    },
  );
}

/** The council decides any valid outcome, or `void`, after the human vote: the market is final. */
export function councilDecide(m: MarketLifecycle, cmd: CommandTime & { verdict: Verdict }): LifecycleResult {
  return act(
    m,
    cmd,
    (cur) => canCouncilAct(cur, cmd.at) ?? verdictRefusal(cur, cmd.verdict),
    (cur) => {
      const final = finalize(cur, cmd.verdict, false);
      return {
        market: final.market,
        steps: [step("councilDecide", cmd.at, cur.state, final.market.state, final.transfers, { verdict: cmd.verdict, session: cur.vote?.session ?? null })],
      };
    },
  );
}

/** The council restarts the vote for integrity: the session's stakes are refunded and a new session opens. */
export function councilRestart(m: MarketLifecycle, cmd: CommandTime): LifecycleResult {
  return act(
    m,
    cmd,
    (cur) => canCouncilAct(cur, cmd.at),
    (cur) => {
      const vote = cur.vote!;
      const refunds = refundSession(vote.session, vote.ballots);
      // The voter pool stays in the escrow for the new session, which keeps the quorum the market had.
      const voting = openSession(cur, cmd.at, vote.quorum);
      return { market: voting, steps: [step("councilRestart", cmd.at, "council_review", "human_voting", refunds, { session: voting.vote!.session })] };
    },
  );
}

/** The operator cancels a market before any proposal: it is void and the creation bond is returned. */
export function cancelMarket(m: MarketLifecycle, cmd: CommandTime): LifecycleResult {
  return act(
    m,
    cmd,
    (cur) => canCancel(cur),
    (cur) => {
      const final = finalize(cur, "void", false);
      return { market: final.market, steps: [step("cancel", cmd.at, cur.state, "void", final.transfers, { verdict: "void" })] };
    },
  );
}

function verdictRefusal(m: MarketLifecycle, verdict: Verdict): LifecycleRefusal | null {
  return isValidVerdict(verdict, m.outcomes) ? null : { code: "INVALID_OUTCOME", outcome: verdict, outcomes: m.outcomes };
}

function act(
  m: MarketLifecycle,
  time: CommandTime,
  guard: (cur: MarketLifecycle) => LifecycleRefusal | null,
  move: (cur: MarketLifecycle) => { market: MarketLifecycle; steps: LifecycleStep[] },
): LifecycleResult {
  const due = dueTransitions(m, time.at, time.quorum);
  const refusal = guard(due.market);
  if (refusal) return refuse(refusal);
  const moved = move(due.market);
  return { ok: true, market: moved.market, steps: [...due.steps, ...moved.steps] };
}

function refuse(refusal: LifecycleRefusal): LifecycleResult {
  return { ok: false, refusal };
}
