/**
 * The lifecycle commands (docs/engine.md "Lifecycle"): each runs the pure operation of relayer/lifecycle on the
 * market's record at the command's `at` (the clock's due transitions first), maps a refusal to its RejectCode, and
 * applies the steps (./lifecycle-apply.ts). Ballot salts come in the command, so a replay makes the same commitment.
 */
import type { Address, Hex } from "viem";
import { ballotHashOf, type OutcomeIndex } from "../../decoder";
import {
  cancelMarket as cancelLifecycle,
  castBallot as castLifecycleBallot,
  challenge as challengeLifecycle,
  councilDecide,
  councilRestart,
  declareMia as declareLifecycleMia,
  isTerminal,
  propose,
  quorumFor,
  type LifecycleRefusal,
  type LifecycleResult,
  type Verdict,
} from "../lifecycle";
import { addCollected, applySteps, saltKey } from "./lifecycle-apply";
import { lifecycleView } from "./lifecycle-views";
import type { LcMarket } from "./model";
import { poolResidual } from "./payouts";
import { invalid, reject } from "./rejection";
import type { EngineState } from "./state";
import type {
  CancelMarketCommand,
  CastBallotCommand,
  ChallengeCommand,
  CollectCreatorFundsCommand,
  CollectCreatorFundsResult,
  CouncilActCommand,
  DeclareMiaCommand,
  LifecycleCommandResult,
  ProposeOutcomeCommand,
  SetCouncilCommand,
  SetCouncilResult,
} from "./types";
import { addressOf } from "./validation";

const HEX32 = /^0x[0-9a-fA-F]{64}$/;
const SIGNATURE = /^0x(?:[0-9a-fA-F]{2})+$/;

/** The lifecycle of a market (either lane); a market without one is MARKET_NOT_FOUND for these commands. */
export function lifecycleOf(s: EngineState, marketId: unknown): LcMarket {
  if (typeof marketId !== "bigint") return invalid("marketId must be a bigint", { field: "marketId" });
  const lm = s.lifecycles.get(marketId);
  if (!lm) return reject("MARKET_NOT_FOUND", s.markets.has(marketId) ? `market ${marketId} has no lifecycle` : `market ${marketId} not found`, {});
  return lm;
}

/**
 * The quorum of a vote session opened now: high exposure when the market's locked collateral is above the
 * threshold. Committed LMSR: the pool; order book: the complete sets outstanding (every YES share was minted with
 * a NO share for one unit); on-chain lane: the ledger does not see it, so low exposure (docs/engine.md).
 */
export function quorumOf(s: EngineState, lm: LcMarket): number {
  const m = lm.mkt;
  if (!m) return quorumFor(0n);
  if (m.lmsr) return quorumFor(poolResidual(s, m));
  let sets = 0n;
  const yes = m.assets[0]!;
  for (const a of s.accts.values()) {
    const b = a.bals.get(yes)?.v ?? 0n;
    if (b > 0n) sets += b;
  }
  return quorumFor(sets);
}

function verdictOf(x: unknown): Verdict {
  if (x === "void" || (typeof x === "number" && Number.isInteger(x))) return x;
  return invalid('outcome must be an outcome index or "void"', { field: "outcome" });
}

/** A lifecycle refusal as the engine's RejectCode (docs/errors.md lists the API's problem for each). */
function refuse(r: LifecycleRefusal, op: "ballot" | "council" | "other"): never {
  switch (r.code) {
    case "WRONG_STATE":
      if (op === "ballot") return reject("VOTE_NOT_OPEN", `no vote session is open (market is ${r.state})`, { session: null, endsAt: null });
      if (op === "council")
        return reject("COUNCIL_NOT_OPEN", `the council cannot act now (market is ${r.state})`, { voteEndsAt: null, councilReviewEndsAt: null });
      return reject("WRONG_MARKET_STATE", `market is ${r.state}, expected ${r.expected.join(" or ")}`, { state: r.state, expected: r.expected });
    case "MARKET_CLOSED":
      return reject("MARKET_CLOSED", `market is ${r.state}`, {});
    case "INVALID_TERMS":
      return invalid(r.reason);
    case "INVALID_OUTCOME":
      return invalid(`outcome ${String(r.outcome)} is not an outcome of this ${r.outcomes}-outcome market`, { field: "outcome" });
    case "CREATOR_WINDOW_NOT_OPEN":
      return reject("CREATOR_WINDOW_NOT_OPEN", "the creator may propose from openTime", { openTime: r.openTime });
    case "CREATOR_WINDOW_ELAPSED":
      return reject("CREATOR_WINDOW_ELAPSED", "the creator's window to propose has elapsed", { creatorResolveBy: r.creatorResolveBy });
    case "NOT_CREATOR":
      return reject("NOT_CREATOR", "only the market's creator may do this", {});
    case "CREATOR_NOT_ELIGIBLE":
      return reject("CREATOR_NOT_ELIGIBLE", "the creator cannot declare its own missed window", {});
    case "CHALLENGE_WINDOW_CLOSED":
      return reject("CHALLENGE_WINDOW_CLOSED", "the challenge window is closed", { challengeBy: r.challengeBy });
    case "ALREADY_CHALLENGED":
      return reject("CHALLENGE_WINDOW_CLOSED", "the proposal was challenged already", { challengeBy: null });
    case "KEEPER_WINDOW_CLOSED":
      return reject("KEEPER_WINDOW_CLOSED", "the keeper window is over: the vote is open", { keeperWindowEndsAt: r.keeperWindowEndsAt });
    case "VOTE_CLOSED":
      return reject("VOTE_NOT_OPEN", `vote session ${r.session} ended`, { session: r.session, endsAt: r.endsAt });
    case "ALREADY_VOTED":
      return reject("ALREADY_VOTED", `one ballot per voter in session ${r.session}`, { session: r.session });
    case "COUNCIL_TOO_EARLY":
      return reject("COUNCIL_NOT_OPEN", "the council acts after the human vote ends", { voteEndsAt: r.voteEndsAt, councilReviewEndsAt: null });
    case "COUNCIL_WINDOW_CLOSED":
      return reject("COUNCIL_NOT_OPEN", "the council's review has ended", { voteEndsAt: null, councilReviewEndsAt: r.councilReviewEndsAt });
  }
}

/** Applies an operation's outcome to the engine and answers the command's result. */
function run(s: EngineState, lm: LcMarket, r: LifecycleResult, op: "ballot" | "council" | "other", ballotHash?: Hex): LifecycleCommandResult {
  if (!r.ok) return refuse(r.refusal, op);
  const first = s.nEvents;
  const settlement = applySteps(s, lm, r.market, r.steps, ballotHash);
  const out: LifecycleCommandResult = { lifecycle: lifecycleView(lm), events: s.events.slice(first, s.nEvents) };
  if (settlement) out.settlement = settlement;
  return out;
}

const time = (s: EngineState, lm: LcMarket, at: number) => ({ at, quorum: quorumOf(s, lm) });

export function proposeOutcome(s: EngineState, c: ProposeOutcomeCommand, at: number): LifecycleCommandResult {
  const account = addressOf(c.account, "account");
  const lm = lifecycleOf(s, c.marketId);
  return run(s, lm, propose(lm.lc, { ...time(s, lm, at), account, verdict: verdictOf(c.outcome) }), "other");
}

export function challenge(s: EngineState, c: ChallengeCommand, at: number): LifecycleCommandResult {
  const account = addressOf(c.account, "account");
  const lm = lifecycleOf(s, c.marketId);
  return run(s, lm, challengeLifecycle(lm.lc, { ...time(s, lm, at), account }), "other");
}

export function declareMia(s: EngineState, c: DeclareMiaCommand, at: number): LifecycleCommandResult {
  const account = addressOf(c.account, "account");
  const lm = lifecycleOf(s, c.marketId);
  return run(s, lm, declareLifecycleMia(lm.lc, { ...time(s, lm, at), account }), "other");
}

export function castBallot(s: EngineState, c: CastBallotCommand, at: number): LifecycleCommandResult {
  const voter = addressOf(c.account, "account");
  const lm = lifecycleOf(s, c.marketId);
  if (typeof c.salt !== "string" || !HEX32.test(c.salt)) return invalid("salt must be 32 bytes of hex", { field: "salt" });
  if (typeof c.outcome !== "number" || !Number.isInteger(c.outcome)) return invalid("outcome must be an outcome index", { field: "outcome" });
  const r = castLifecycleBallot(lm.lc, { ...time(s, lm, at), voter, outcome: c.outcome });
  if (!r.ok) return refuse(r.refusal, "ballot");
  const session = r.market.vote!.session;
  const salt = c.salt.toLowerCase() as Hex;
  const key = saltKey(session, voter);
  lm.salts.set(key, salt);
  s.u.fn(() => lm.salts.delete(key));
  const ballotHash = ballotHashOf({ marketId: lm.id, session, account: voter, outcome: c.outcome as OutcomeIndex, salt });
  return run(s, lm, r, "ballot", ballotHash);
}

export function councilAct(s: EngineState, c: CouncilActCommand, at: number): LifecycleCommandResult {
  const member = addressOf(c.member, "member");
  const lm = lifecycleOf(s, c.marketId);
  if (typeof c.signature !== "string" || !SIGNATURE.test(c.signature)) return invalid("signature must be hex bytes", { field: "signature" });
  if (!s.council.has(member)) return reject("NOT_COUNCIL_MEMBER", `${member} is not a council member`, {});
  const t = time(s, lm, at);
  if (c.action === "decide") return run(s, lm, councilDecide(lm.lc, { ...t, verdict: verdictOf(c.outcome) }), "council");
  if (c.action === "restart") {
    if (c.outcome !== undefined) return invalid("a restart names no outcome", { field: "outcome" });
    return run(s, lm, councilRestart(lm.lc, t), "council");
  }
  return invalid('action must be "decide" or "restart"', { field: "action" });
}

export function cancelMarket(s: EngineState, c: CancelMarketCommand, at: number): LifecycleCommandResult {
  const lm = lifecycleOf(s, c.marketId);
  return run(s, lm, cancelLifecycle(lm.lc, time(s, lm, at)), "other");
}

export function setCouncil(s: EngineState, c: SetCouncilCommand): SetCouncilResult {
  if (!Array.isArray(c.members) || c.members.length > 1000) return invalid("members must be an array of at most 1000 addresses", { field: "members" });
  const members = [...new Set(c.members.map((m) => addressOf(m, "members")))].sort();
  const before = s.council;
  s.council = new Set(members);
  s.u.fn(() => (s.council = before));
  return { members };
}

/** POOL_WITHDRAW pool -> creator of what the pool still holds, once the market is final; 0 moves nothing. */
export function collectCreatorFunds(s: EngineState, c: CollectCreatorFundsCommand): CollectCreatorFundsResult {
  const account = addressOf(c.account, "account");
  const lm = lifecycleOf(s, c.marketId);
  if (account !== lm.lc.creator) return reject("NOT_CREATOR", "only the market's creator collects its funds", {});
  if (!isTerminal(lm.lc.state)) return reject("MARKET_NOT_FINAL", `market is ${lm.lc.state}`, { state: lm.lc.state });
  const amount = lm.mkt ? poolResidual(s, lm.mkt) : 0n;
  if (amount > 0n) {
    s.emit({ type: "POOL_WITHDRAW", marketId: lm.id, account: account as Address, amount });
    addCollected(s, lm, amount);
  }
  return { marketId: lm.idStr, account, amount };
}
