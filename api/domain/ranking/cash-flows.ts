/**
 * The deprecated P&L history (the spec's "PnL history by address (deprecated cash-flow history)"; docs/leaderboard.md
 * "P&L history (deprecated)"): the collateral an account paid and received for its trading, entry by entry, with the
 * running sum. It is P&L as it was counted before marks: a position bought and still held reads as a loss until it is
 * sold, paid or refunded. The trading profile (GET /discover/traders/{address}) is what replaces it.
 *
 * From the committed journal alone, through each op's movement list (the ones `decode` replays), counting only the
 * legs of the accounts the op names: MATCH (maker and taker), LMSR_TRADE, RESOLUTION_PAYOUT and VOID_REFUND.
 */
import type { Address } from "viem";
import { COLLATERAL_ASSET, movementsOf, parseOutcomeAssetId, type JournalOp } from "../../../decoder";
import type { JournalFollower } from "../ledger/journal-follower";
import { NO_TREASURY, tradersOf } from "./trading-pass";

export const CASH_FLOW_KINDS = ["buy", "sell", "payout", "refund"] as const;
export type CashFlowKind = (typeof CASH_FLOW_KINDS)[number];

export interface CashFlow {
  seq: number;
  at: number;
  marketId: bigint;
  kind: CashFlowKind;
  /** The outcome whose shares the account gained (buy) or gave up; null when several moved (a self-matched mint). */
  outcome: number | null;
  /** Shares of `outcome` gained (buy) or given up (sell, payout, refund), base units; 0 when `outcome` is null. */
  shares: bigint;
  /** Collateral received (> 0) or paid (< 0), fee included, base units. */
  cashFlow: bigint;
  /** The fee within `cashFlow`, base units. */
  fee: bigint;
  /** The account's cash flows summed over the journal up to and including this one. */
  cumulative: bigint;
}

const lower = (a: Address) => a.toLowerCase() as Address;

/** The cash flows of one op, one per account it names (without `cumulative`). */
export function cashFlowsOf(seq: number, at: number, op: JournalOp): { account: Address; flow: Omit<CashFlow, "cumulative"> }[] {
  const accounts = [...new Set(tradersOf(op).map(lower))];
  if (accounts.length === 0 || !("marketId" in op)) return [];
  const moves = movementsOf(op, { treasury: NO_TREASURY });
  return accounts.map((account) => {
    let cash = 0n;
    let fee = 0n;
    const shares = new Map<number, bigint>();
    for (const m of moves) {
      const from = lower(m.from) === account;
      const to = lower(m.to) === account;
      if (from === to) continue;
      const signed = to ? m.amount : -m.amount;
      if (m.assetId === COLLATERAL_ASSET) {
        cash += signed;
        if (m.to === NO_TREASURY) fee += m.amount;
      } else {
        const side = parseOutcomeAssetId(m.assetId)?.side;
        if (side !== undefined) shares.set(side, (shares.get(side) ?? 0n) + signed);
      }
    }
    const moved = [...shares].filter(([, v]) => v !== 0n);
    const [outcome, delta] = moved.length === 1 ? moved[0] : [null, 0n];
    const kind: CashFlowKind =
      op.type === "RESOLUTION_PAYOUT" ? "payout" : op.type === "VOID_REFUND" ? "refund" : delta > 0n || (delta === 0n && cash < 0n) ? "buy" : "sell";
    return { account, flow: { seq, at, marketId: op.marketId, kind, outcome, shares: delta < 0n ? -delta : delta, cashFlow: cash, fee } };
  });
}

/** Every account's cash flows, kept up to date with the journal on each read. */
export class CashFlowLog {
  readonly #byAccount = new Map<Address, CashFlow[]>();
  readonly #journal: JournalFollower;

  constructor(journal: JournalFollower) {
    this.#journal = journal.follow((seq, at, ops) => {
      for (const op of ops)
        for (const { account, flow } of cashFlowsOf(seq, at, op)) {
          const list = this.#byAccount.get(account) ?? [];
          const cumulative = (list.at(-1)?.cumulative ?? 0n) + flow.cashFlow;
          list.push({ ...flow, cumulative });
          this.#byAccount.set(account, list);
        }
    });
  }

  /** A page of the account's cash flows (`pageOf`), the journal read up to now first. */
  async page(account: string, before: number | null, limit: number) {
    await this.#journal.catchUp();
    return pageOf(this.#byAccount.get(account.toLowerCase() as Address) ?? [], before, limit);
  }
}

/**
 * An account's cash flows newest first: the `limit` before position `before` (all of them when null), the position
 * to read on from (null at its first flow), how many it has, and their sum. Positions are stable: an account's list
 * only grows, in journal order, and is rebuilt the same from the journal after a restart.
 */
export function pageOf(list: readonly CashFlow[], before: number | null, limit: number) {
  const end = Math.min(before ?? list.length, list.length);
  const start = Math.max(0, end - limit);
  return { flows: list.slice(start, end).reverse(), next: start > 0 ? start : null, total: list.length, net: list.at(-1)?.cumulative ?? 0n };
}
