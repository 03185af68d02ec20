/**
 * Which UTC days each ledger account traded on, from the committed journal alone: a fill on the order book (as maker
 * or taker) or a trade against an LMSR pool. The participation release credits an identity for each such day of its
 * members (docs/participation-release.md). Kept as rows, following the journal.
 */
import type { JournalOp } from "../../../decoder/journal/ops";
import type { SqlRunner } from "../../../relayer/db/client";
import type { FollowedEntry, JournalFollower, PageWrite } from "../ledger/journal-follower";
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

/** Which days each account traded on, as rows of `account_trade_days` (migration 393) that the journal follower writes. */
export class TradeDayLog {
  constructor(
    private readonly db: SqlRunner,
    private readonly journal: JournalFollower,
  ) {
    journal.follow({ prepare: async (page) => upsertTradeDays(page) });
  }

  /** The trade records of `accounts`, after projecting the journal up to now; accounts that never traded are left out. */
  async of(accounts: readonly string[]): Promise<TradeRecord[]> {
    await this.journal.catchUp();
    const list = accounts.map((a) => a.toLowerCase());
    const rows = await this.db.query<{ account: string; day: number; last_at: string }>(
      `SELECT account, day, last_at::text FROM account_trade_days WHERE account = ANY($1::text[])`,
      [list],
    );
    const byAccount = new Map<string, TradeRecord>();
    for (const r of rows) {
      const rec = byAccount.get(r.account) ?? { days: new Set<number>(), lastAt: 0 };
      rec.days.add(r.day);
      rec.lastAt = Math.max(rec.lastAt, Number(r.last_at));
      byAccount.set(r.account, rec);
    }
    return [...new Set(list)].flatMap((a) => byAccount.get(a) ?? []);
  }
}

/** A page's trading days: one row per account and day, keeping the day's last trade. */
function upsertTradeDays(page: readonly FollowedEntry[]): PageWrite {
  const lastAt = new Map<string, { account: string; day: number; last_at: number }>();
  for (const e of page)
    for (const account of tradingAccountsOf(e.ops)) {
      const key = `${account}:${dayOf(e.at)}`;
      const r = lastAt.get(key);
      if (!r) lastAt.set(key, { account, day: dayOf(e.at), last_at: e.at });
      else r.last_at = Math.max(r.last_at, e.at);
    }
  return async (tx) => {
    if (lastAt.size === 0) return;
    await tx.query(
      `INSERT INTO account_trade_days (account, day, last_at)
     SELECT account, day, last_at FROM json_to_recordset($1::text::json) AS x(account text, day integer, last_at bigint)
     ON CONFLICT (account, day) DO UPDATE SET last_at = greatest(account_trade_days.last_at, excluded.last_at)`,
      [JSON.stringify([...lastAt.values()])],
    );
  };
}
