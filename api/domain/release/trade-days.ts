/**
 * Which UTC days each ledger account traded on, from the committed journal alone: a fill on the order book (as maker
 * or taker) or a trade against an LMSR pool. The participation release credits an identity for each such day of its
 * members (docs/participation-release.md). Kept in memory, following the journal.
 */
import type { JournalOp } from "../../../decoder/journal/ops";
import type { JournalFollower } from "../ledger/journal-follower";
import { dayOf } from "./program";

export interface TradeRecord {
  /** UTC days with at least one qualifying trade. */
  days: Set<number>;
  lastAt: number;
}

/** The accounts (lower case) that traded in one journal entry's ops. */
export function tradingAccountsOf(ops: readonly JournalOp[]): string[] {
  const out: string[] = [];
  for (const op of ops) {
    if (op.type === "MATCH") out.push(op.maker.toLowerCase(), op.taker.toLowerCase());
    else if (op.type === "LMSR_TRADE") out.push(op.account.toLowerCase());
  }
  return out;
}

export class TradeDayLog {
  readonly #byAccount = new Map<string, TradeRecord>();
  readonly #journal: JournalFollower;

  constructor(journal: JournalFollower) {
    this.#journal = journal.follow((_seq, at, ops) => {
      for (const account of tradingAccountsOf(ops)) {
        const r = this.#byAccount.get(account);
        if (!r) this.#byAccount.set(account, { days: new Set([dayOf(at)]), lastAt: at });
        else {
          r.days.add(dayOf(at));
          r.lastAt = Math.max(r.lastAt, at);
        }
      }
    });
  }

  /** The trade records of `accounts`, after reading the journal up to now; accounts that never traded are left out. */
  async of(accounts: readonly string[]): Promise<TradeRecord[]> {
    await this.#journal.catchUp();
    return accounts.flatMap((a) => this.#byAccount.get(a.toLowerCase()) ?? []);
  }
}
