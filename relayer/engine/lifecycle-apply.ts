/**
 * Applying the pure state machine's steps (relayer/lifecycle) to the engine: each state change is a MARKET_STATE op
 * and a typed LifecycleEvent, each transfer its PMJ5 op, a vote's end reveals its ballots (BALLOT_REVEAL), closing
 * cancels the book's resting orders (reason market_closed), and finality pays the committed lane's holders
 * (RESOLUTION_PAYOUT / VOID_REFUND) in the same command. Every change is undone with the command on a refusal.
 */
import type { Hex } from "viem";
import { OUTCOME_NONE, voteEscrowOf, type JournalOp, type OutcomeIndex } from "../../decoder";
import { isTerminal, nextActionDeadline, creatorMissedAt, type LifecycleStep, type MarketLifecycle, type Transfer } from "../lifecycle";
import { saveMarket } from "./market-status";
import type { LcMarket } from "./model";
import { cancelBook, payHolders } from "./payouts";
import type { EngineState } from "./state";
import type { FinalSettlement, LifecycleEvent } from "./types";

/** When the clock next has something to do for this record: its stage deadline (the miss is one ms after creatorResolveBy). */
export function dueAt(lc: MarketLifecycle): number | undefined {
  if (lc.state === "closed") return creatorMissedAt(lc.closeTime);
  return nextActionDeadline(lc) ?? undefined;
}

/** Records a lifecycle's mutable fields for rollback (once per command) and keeps the earliest deadline in step. */
function saveLc(s: EngineState, lm: LcMarket): void {
  if (lm.ep === s.u.ep) return;
  lm.ep = s.u.ep;
  const { lc, finalAt, settlement, collected } = lm;
  s.u.fn(() => {
    lm.lc = lc;
    lm.finalAt = finalAt;
    lm.settlement = settlement;
    lm.collected = collected;
    s.lcDirty = true;
  });
}

/** Sets a lifecycle's record; the cached earliest deadline is updated or marked for recomputation. */
export function setLc(s: EngineState, lm: LcMarket, next: MarketLifecycle): void {
  saveLc(s, lm);
  const before = s.lifecycles.has(lm.id) ? dueAt(lm.lc) : undefined;
  lm.lc = next;
  if (s.lcDirty) return;
  const after = dueAt(next);
  // The earliest deadline moved later (or went): only a scan finds the next one. Many markets share a deadline
  // (a creator's batch with one closeTime), so a deadline kept or brought forward must not cost that scan.
  if (before !== undefined && before === s.lcNext) {
    if (after !== undefined && after <= before) s.lcNext = after;
    else s.lcDirty = true;
  } else if (after !== undefined && (s.lcNext === undefined || after < s.lcNext)) s.lcNext = after;
}

/** Records the creator's collected funds (rollback-safe). */
export function addCollected(s: EngineState, lm: LcMarket, amount: bigint): void {
  saveLc(s, lm);
  lm.collected += amount;
}

/** The ballots' key in LcMarket.salts. */
export const saltKey = (session: number, voter: string): string => `${session}/${voter.toLowerCase()}`;

/**
 * Applies `steps` (which led from lm.lc to `next`) at the engine: ops, events, book closing and finality. Returns the
 * settlement when the market became final. `ballotHash` is the commitment of the STAKE_LOCK a castBallot step makes.
 */
export function applySteps(
  s: EngineState,
  lm: LcMarket,
  next: MarketLifecycle,
  steps: readonly LifecycleStep[],
  ballotHash?: Hex,
): FinalSettlement | undefined {
  const before = lm.lc;
  let settlement: FinalSettlement | undefined;
  for (const st of steps) {
    if (st.from !== st.to) {
      s.emit({ type: "MARKET_STATE", marketId: lm.id, state: st.to, outcome: stateOutcome(st, next) });
      const ev: LifecycleEvent = { marketId: lm.idStr, from: st.from, to: st.to, at: st.at, reason: st.via };
      const outcome = st.to === "creator_proposal" ? next.proposal?.verdict : (st.verdict ?? undefined);
      if (outcome !== undefined) ev.outcome = outcome;
      if (st.session !== null) ev.session = st.session;
      s.events[s.nEvents++] = ev;
      if (lm.mkt && st.to !== "open") closeBook(s, lm, st.at);
    }
    if (st.via === "voteEnded" && st.session !== null) reveal(s, lm, [before, next], st.session);
    for (const t of st.transfers) s.emit(opOf(lm.id, t, ballotHash));
    if (st.to !== st.from && isTerminal(st.to)) settlement = finalizeHolders(s, lm, st.verdict ?? "void", st.at);
  }
  setLc(s, lm, next);
  return settlement;
}

function stateOutcome(st: LifecycleStep, next: MarketLifecycle): OutcomeIndex | typeof OUTCOME_NONE {
  const v = st.to === "creator_proposal" ? next.proposal?.verdict : st.to === "resolved" ? st.verdict : undefined;
  return typeof v === "number" ? (v as OutcomeIndex) : OUTCOME_NONE;
}

/** Trading stops: resting orders are cancelled (market_closed) and the market's status leaves "open". */
function closeBook(s: EngineState, lm: LcMarket, at: number): void {
  const m = lm.mkt!;
  if (m.status !== "open") return;
  saveMarket(s, m);
  m.status = "closed";
  m.closeAt = Math.min(m.closeAt, at);
  cancelBook(s, m, at);
}

/** The session's ballots revealed in the order they were cast, each with the salt of its commitment. */
function reveal(s: EngineState, lm: LcMarket, records: readonly MarketLifecycle[], session: number): void {
  const vote = records.map((r) => r.vote).find((v) => v?.session === session);
  for (const b of vote?.ballots ?? []) {
    const salt = lm.salts.get(saltKey(session, b.voter));
    if (salt === undefined) throw new Error(`lifecycle invariant: no salt for the ballot of ${b.voter} in market ${lm.idStr} session ${session}`);
    s.emit({ type: "BALLOT_REVEAL", marketId: lm.id, session, account: b.voter, outcome: b.outcome as OutcomeIndex, salt });
  }
}

/** The PMJ5 op of one lifecycle transfer (escrow accounts are derived from the market id by the decoder). */
function opOf(marketId: bigint, t: Transfer, ballotHash: Hex | undefined): JournalOp {
  switch (t.op) {
    case "BOND_LOCK":
      return { type: "BOND_LOCK", marketId, account: t.from, amount: t.amount };
    case "BOND_RETURN":
      return { type: "BOND_RETURN", marketId, account: t.to, amount: t.amount };
    case "BOND_AWARD":
      return { type: "BOND_AWARD", marketId, account: t.bondOf, recipient: t.to === "vote_escrow" ? voteEscrowOf(marketId) : t.to, amount: t.amount };
    case "BOND_SLASH":
      return { type: "BOND_SLASH", marketId, account: t.bondOf, amount: t.amount };
    case "STAKE_LOCK":
      if (ballotHash === undefined) throw new Error("lifecycle invariant: a STAKE_LOCK without its ballot commitment");
      return { type: "STAKE_LOCK", marketId, session: t.session, account: t.from, amount: t.amount, ballotHash };
    case "STAKE_RETURN":
      return { type: "STAKE_RETURN", marketId, session: t.session, account: t.to, amount: t.amount };
    case "VOTE_REWARD":
      return { type: "VOTE_REWARD", marketId, session: t.session, account: t.to, amount: t.amount };
    case "VOTE_ESCROW_SWEEP":
      return { type: "VOTE_ESCROW_SWEEP", marketId, amount: t.amount };
  }
}

/** Finality: the committed lane pays every holder now; the on-chain lane names the resolver's call. */
function finalizeHolders(s: EngineState, lm: LcMarket, verdict: number | "void", at: number): FinalSettlement {
  saveLc(s, lm);
  lm.finalAt = at;
  let settlement: FinalSettlement;
  const m = lm.mkt;
  if (m) {
    saveMarket(s, m);
    m.status = verdict === "void" ? "voided" : "resolved";
    if (verdict !== "void") m.winningOutcome = verdict;
    m.closeAt = Math.min(m.closeAt, at);
    const r = payHolders(s, m, verdict === "void" ? null : verdict, at, lm.receipts);
    settlement = { verdict, paid: r.paid, fees: r.fees, holders: r.holders };
  } else {
    settlement = {
      verdict,
      paid: 0n,
      fees: 0n,
      holders: 0,
      onchainAction: verdict === "void" ? { method: "voidMarket" } : { method: "resolve", outcome: verdict },
    };
  }
  lm.settlement = settlement;
  return settlement;
}
