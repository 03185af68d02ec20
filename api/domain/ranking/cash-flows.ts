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
import type { SqlRunner } from "../../../relayer/db/client";
import type { FollowedEntry, JournalFollower, PageWrite } from "../ledger/journal-follower";
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

const FLOW_COLUMNS = "seq::text, at::text, market_id::text, kind, outcome, shares::text, cash_flow::text, fee::text, cumulative::text";

interface FlowRow {
  seq: string;
  at: string;
  market_id: string;
  kind: CashFlowKind;
  outcome: number | null;
  shares: string;
  cash_flow: string;
  fee: string;
  cumulative: string;
}

const flowOf = (r: FlowRow): CashFlow => ({
  seq: Number(r.seq),
  at: Number(r.at),
  marketId: BigInt(r.market_id),
  kind: r.kind,
  outcome: r.outcome,
  shares: BigInt(r.shares),
  cashFlow: BigInt(r.cash_flow),
  fee: BigInt(r.fee),
  cumulative: BigInt(r.cumulative),
});

/**
 * Every account's cash flows, as rows of `account_cash_flows` (migration 393) that the journal follower writes. An
 * account's positions are 0, 1, 2... in journal order: stable, so they are the history's page cursor.
 */
export class CashFlowLog {
  constructor(
    private readonly db: SqlRunner,
    private readonly journal: JournalFollower,
  ) {
    journal.follow({ prepare: async (page) => appendFlows(page) });
  }

  /**
   * An account's cash flows newest first, the journal projected up to now first: the `limit` before position `before`
   * (from the newest when null), the position to read on from (null at its first flow), how many it has, and their sum.
   */
  async page(account: string, before: number | null, limit: number): Promise<{ flows: CashFlow[]; next: number | null; total: number; net: bigint }> {
    await this.journal.catchUp();
    const a = account.toLowerCase();
    const [newest] = await this.db.query<{ pos: number; cumulative: string }>(
      `SELECT pos, cumulative::text FROM account_cash_flows WHERE account = $1 ORDER BY pos DESC LIMIT 1`,
      [a],
    );
    const total = newest ? newest.pos + 1 : 0;
    const end = Math.min(before ?? total, total);
    const start = Math.max(0, end - limit);
    const rows =
      end > start
        ? await this.db.query<FlowRow>(`SELECT ${FLOW_COLUMNS} FROM account_cash_flows WHERE account = $1 AND pos >= $2 AND pos < $3 ORDER BY pos DESC`, [
            a,
            start,
            end,
          ])
        : [];
    return { flows: rows.map(flowOf), next: start > 0 ? start : null, total, net: newest ? BigInt(newest.cumulative) : 0n };
  }
}

/** Appends a page's cash flows to each account's list, after the last position and running sum it has. */
function appendFlows(page: readonly FollowedEntry[]): PageWrite {
  const flows = page.flatMap((e) => e.ops.flatMap((op) => cashFlowsOf(e.seq, e.at, op)));
  return async (tx) => {
    if (flows.length === 0) return;
    const accounts = [...new Set(flows.map((f) => f.account))];
    const tails = new Map<string, { pos: number; cumulative: bigint }>();
    const rows = await tx.query<{ account: string; pos: number; cumulative: string }>(
      // One index probe per account (a DISTINCT ON over the accounts would read their whole histories).
      `SELECT a.account, t.pos, t.cumulative::text FROM unnest($1::text[]) AS a(account)
         CROSS JOIN LATERAL (SELECT pos, cumulative FROM account_cash_flows f WHERE f.account = a.account ORDER BY pos DESC LIMIT 1) t`,
      [accounts],
    );
    for (const r of rows) tails.set(r.account, { pos: r.pos, cumulative: BigInt(r.cumulative) });
    const records = flows.map(({ account, flow: f }) => {
      const tail = tails.get(account) ?? { pos: -1, cumulative: 0n };
      const next = { pos: tail.pos + 1, cumulative: tail.cumulative + f.cashFlow };
      tails.set(account, next);
      return {
        account,
        pos: next.pos,
        seq: f.seq,
        at: f.at,
        market_id: f.marketId.toString(),
        kind: f.kind,
        outcome: f.outcome,
        shares: f.shares.toString(),
        cash_flow: f.cashFlow.toString(),
        fee: f.fee.toString(),
        cumulative: next.cumulative.toString(),
      };
    });
    await tx.query(
      `INSERT INTO account_cash_flows (account, pos, seq, at, market_id, kind, outcome, shares, cash_flow, fee, cumulative)
       SELECT account, pos, seq, at, market_id, kind, outcome, shares, cash_flow, fee, cumulative FROM json_to_recordset($1::text::json)
           AS x(account text, pos integer, seq bigint, at bigint, market_id numeric, kind text, outcome smallint, shares numeric,
                cash_flow numeric, fee numeric, cumulative numeric)`,
      [JSON.stringify(records)],
    );
  };
}
