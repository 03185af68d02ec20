/**
 * A batch's lifecycle in brief, per market: the states it entered, the ballots revealed, and how much each kind of
 * lifecycle operation paid (count and collateral total). `decode` prints it so an auditor reading one payout batch
 * sees "market 12 resolved to outcome 1; 3 payouts totalling …" without adding up the operations.
 */
import { OUTCOME_NONE, type MarketStateName } from "./market-states";
import { OP_TAGS, type JournalOp } from "./ops";

/** Operation types counted in the totals: the market-scoped movements of money outside trading. */
export const LIFECYCLE_PAYMENT_TYPES = [
  "MARKET_SEED",
  "POOL_WITHDRAW",
  "RESOLUTION_PAYOUT",
  "VOID_REFUND",
  "FEE_SWEEP",
  "BOND_LOCK",
  "BOND_RETURN",
  "BOND_SLASH",
  "BOND_AWARD",
  "STAKE_LOCK",
  "STAKE_RETURN",
  "VOTE_REWARD",
  "VOTE_ESCROW_SWEEP",
] as const satisfies readonly JournalOp["type"][];
/** One of {@link LIFECYCLE_PAYMENT_TYPES}. */
export type LifecyclePaymentType = (typeof LIFECYCLE_PAYMENT_TYPES)[number];

/** One market's lifecycle within one batch. */
export interface MarketLifecycleSummary {
  readonly marketId: bigint;
  /** The states the market entered, in order; `outcome` null when the MARKET_STATE named none. */
  readonly transitions: { readonly state: MarketStateName; readonly outcome: number | null }[];
  /** Ballots revealed, per outcome voted (outcome ascending); empty when none. */
  readonly ballots: { readonly outcome: number; readonly count: number }[];
  /** Per operation type (in tag order): how many, and the collateral they paid (payout, refund or amount). */
  readonly totals: { readonly type: LifecyclePaymentType; readonly count: number; readonly amount: bigint }[];
}

type Payment = Extract<JournalOp, { type: LifecyclePaymentType }>;

const isPayment = (op: JournalOp): op is Payment => (LIFECYCLE_PAYMENT_TYPES as readonly string[]).includes(op.type);

const paidBy = (op: Payment): bigint => (op.type === "RESOLUTION_PAYOUT" ? op.payout : op.type === "VOID_REFUND" ? op.refund : op.amount);

interface Draft {
  readonly marketId: bigint;
  readonly transitions: { state: MarketStateName; outcome: number | null }[];
  readonly ballots: Map<number, number>;
  readonly totals: Map<LifecyclePaymentType, { count: number; amount: bigint }>;
}

/**
 * The lifecycle of each market that a batch's MARKET_STATE, BALLOT_REVEAL or payment operations name, in the order
 * the markets first appear; empty for a batch of trades and grants only.
 */
export function lifecycleSummary(ops: readonly JournalOp[]): MarketLifecycleSummary[] {
  const markets = new Map<bigint, Draft>();
  const draftOf = (marketId: bigint): Draft => {
    let d = markets.get(marketId);
    if (!d) markets.set(marketId, (d = { marketId, transitions: [], ballots: new Map(), totals: new Map() }));
    return d;
  };
  for (const op of ops) {
    if (op.type === "MARKET_STATE") {
      draftOf(op.marketId).transitions.push({ state: op.state, outcome: op.outcome === OUTCOME_NONE ? null : op.outcome });
    } else if (op.type === "BALLOT_REVEAL") {
      const { ballots } = draftOf(op.marketId);
      ballots.set(op.outcome, (ballots.get(op.outcome) ?? 0) + 1);
    } else if (isPayment(op)) {
      const { totals } = draftOf(op.marketId);
      const t = totals.get(op.type) ?? { count: 0, amount: 0n };
      totals.set(op.type, { count: t.count + 1, amount: t.amount + paidBy(op) });
    }
  }
  return [...markets.values()].map((d) => ({
    marketId: d.marketId,
    transitions: d.transitions,
    ballots: [...d.ballots].sort(([a], [b]) => a - b).map(([outcome, count]) => ({ outcome, count })),
    totals: [...d.totals].sort(([a], [b]) => OP_TAGS[a] - OP_TAGS[b]).map(([type, t]) => ({ type, ...t })),
  }));
}
