/**
 * Read views of markets' lives: the lifecycle view (state, deadlines, proposal, vote, bonds), payout receipts and the
 * creator's funds. Fresh objects; ballots stay sealed (only their count shows).
 */
import type { Address } from "viem";
import { deadlinesOf, isTerminal } from "../lifecycle";
import type { LcMarket } from "./model";
import { poolResidual } from "./payouts";
import type { EngineState } from "./state";
import type { CreatorFundsView, LifecycleView, PayoutReceipt } from "./types";

export function lifecycleView(lm: LcMarket): LifecycleView {
  const lc = lm.lc;
  const d = deadlinesOf(lc);
  return {
    marketId: lm.idStr,
    lane: lm.lane,
    state: lc.state,
    creator: lc.creator,
    outcomes: lc.outcomes,
    openTime: lc.openTime,
    closeTime: lc.closeTime,
    creatorResolveBy: d.creatorResolveBy,
    challengeBy: d.challengeBy,
    keeperWindowEndsAt: d.keeperWindowEndsAt,
    councilReviewEndsAt: d.councilReviewEndsAt,
    nextActionDeadline: d.nextActionDeadline,
    proposal: lc.proposal ? { outcome: lc.proposal.verdict, at: lc.proposal.at } : null,
    challenger: lc.challenger,
    vote: lc.vote
      ? { session: lc.vote.session, openedAt: lc.vote.openedAt, endsAt: d.humanVoteEndsAt!, quorum: lc.vote.quorum, ballots: lc.vote.ballots.length }
      : null,
    verdict: lc.verdict,
    finalAt: lm.finalAt,
    bonds: { creation: lc.creationBond, creator: lc.bonds.creator, challenger: lc.bonds.challenger },
    voterPool: lc.voterPool,
  };
}

export function receiptView(r: PayoutReceipt): PayoutReceipt {
  return { ...r, shares: [...r.shares] };
}

/** What the holders of one market were paid, by account. */
export function receiptsOf(lm: LcMarket): PayoutReceipt[] {
  return lm.receipts.map(receiptView);
}

/** What one (lower-case) account was paid across every final committed market, oldest market first. */
export function receiptsOfAccount(s: EngineState, account: Address): PayoutReceipt[] {
  const mine = s.accts.get(account)?.receipts;
  if (!mine) return [];
  const out: PayoutReceipt[] = [];
  for (const lm of s.lifecycles.values()) {
    const r = mine.find((x) => x.marketId === lm.idStr);
    if (r) out.push(receiptView(r));
  }
  return out;
}

export function creatorFundsView(s: EngineState, lm: LcMarket): CreatorFundsView {
  const final = isTerminal(lm.lc.state);
  const residual = lm.mkt ? poolResidual(s, lm.mkt) : 0n;
  return { marketId: lm.idStr, creator: lm.lc.creator, lane: lm.lane, final, residual, collectable: final ? residual : 0n, collected: lm.collected };
}
