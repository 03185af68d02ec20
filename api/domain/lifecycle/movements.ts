/**
 * Reads of the projected movements (lifecycle_ops, ./journal-projection.ts): what each holder was paid per market,
 * the bond movements of a market and what its creator collected. Every read names the journal entry that moved the
 * money and the ledger batch that carries it on chain (ledger_batches: the corroboration of a receipt).
 */
import type { Address, Hex } from "viem";
import type { SqlRunner } from "../../../relayer/db/client";

/** The batch that put a journal entry on chain, when there is one. */
export interface BatchRef {
  nonce: bigint;
  status: "pending" | "sent" | "confirmed";
  txHash: Hex | null;
  /** When the batcher recorded its latest status (the receipt time once confirmed). */
  updatedAt: number;
}

/** One holder's payout (or void refund) of one market: every RESOLUTION_PAYOUT / VOID_REFUND op of it summed. */
export interface PayoutRecord {
  marketId: bigint;
  account: Address;
  kind: "RESOLUTION_PAYOUT" | "VOID_REFUND";
  /** Collateral credited, net of the winnings exit fee. */
  amount: bigint;
  /** Shares burned (every outcome). */
  shares: bigint;
  /** Winning shares burned (a payout's sides that paid something). */
  winningShares: bigint;
  entrySeq: number;
  idx: number;
  at: number;
  batch: BatchRef | null;
}

const BATCH_JOIN = `LEFT JOIN ledger_batches b ON p.entry_seq BETWEEN b.first_seq AND b.last_seq`;
const BATCH_COLS = `b.nonce::text AS b_nonce, b.status AS b_status, b.tx_hash AS b_tx, b.updated_at::text AS b_updated`;

type Row = Record<string, string | number | null>;

function batchOf(r: Row): BatchRef | null {
  if (r.b_nonce === null || r.b_nonce === undefined) return null;
  return { nonce: BigInt(r.b_nonce), status: r.b_status as BatchRef["status"], txHash: (r.b_tx as Hex | null) ?? null, updatedAt: Number(r.b_updated) };
}

function payoutOf(r: Row): PayoutRecord {
  return {
    marketId: BigInt(String(r.market_id)),
    account: String(r.account) as Address,
    kind: r.kind as PayoutRecord["kind"],
    amount: BigInt(String(r.amount)),
    shares: BigInt(String(r.shares)),
    winningShares: BigInt(String(r.winning)),
    entrySeq: Number(r.entry_seq),
    idx: Number(r.idx),
    at: Number(r.at),
    batch: batchOf(r),
  };
}

const PAYOUTS_SQL = `
  WITH p AS (
    SELECT market_id, account, kind, SUM(amount) AS amount, SUM(COALESCE(shares, 0)) AS shares,
           SUM(CASE WHEN amount > 0 THEN COALESCE(shares, 0) ELSE 0 END) AS winning,
           MIN(entry_seq) AS entry_seq, MIN(idx) AS idx, MIN(at) AS at
      FROM lifecycle_ops
     WHERE account = $1 AND kind IN ('RESOLUTION_PAYOUT', 'VOID_REFUND') AND ($2::numeric IS NULL OR market_id > $2::numeric)
     GROUP BY market_id, account, kind)
  SELECT p.market_id::text, p.account, p.kind, p.amount::text, p.shares::text, p.winning::text, p.entry_seq::text, p.idx, p.at::text, ${BATCH_COLS}
    FROM p ${BATCH_JOIN}
   ORDER BY p.market_id
   LIMIT $3`;

/** An account's payouts, market id ascending, after `afterMarketId` (a page cursor), at most `limit`. */
export async function payoutsOf(db: SqlRunner, account: Address, page: { afterMarketId?: bigint; limit: number }): Promise<PayoutRecord[]> {
  const rows = await db.query<Row>(PAYOUTS_SQL, [account.toLowerCase(), page.afterMarketId?.toString() ?? null, page.limit]);
  return rows.map(payoutOf);
}

/** An account's payouts in the given markets. */
export async function payoutsIn(db: SqlRunner, account: Address, marketIds: readonly bigint[]): Promise<Map<bigint, PayoutRecord>> {
  if (marketIds.length === 0) return new Map();
  const rows = await db.query<Row>(
    `WITH p AS (
       SELECT market_id, account, kind, SUM(amount) AS amount, SUM(COALESCE(shares, 0)) AS shares,
              SUM(CASE WHEN amount > 0 THEN COALESCE(shares, 0) ELSE 0 END) AS winning,
              MIN(entry_seq) AS entry_seq, MIN(idx) AS idx, MIN(at) AS at
         FROM lifecycle_ops
        WHERE account = $1 AND kind IN ('RESOLUTION_PAYOUT', 'VOID_REFUND') AND market_id = ANY($2::numeric[])
        GROUP BY market_id, account, kind)
     SELECT p.market_id::text, p.account, p.kind, p.amount::text, p.shares::text, p.winning::text, p.entry_seq::text, p.idx, p.at::text, ${BATCH_COLS}
       FROM p ${BATCH_JOIN}`,
    [account.toLowerCase(), marketIds.map(String)],
  );
  return new Map(rows.map((r) => [BigInt(String(r.market_id)), payoutOf(r)]));
}

/** How many markets paid the account (the totalCount of the claim pages). */
export async function payoutCount(db: SqlRunner, account: Address): Promise<number> {
  const [r] = await db.query<{ n: string }>(
    `SELECT COUNT(DISTINCT market_id)::text AS n FROM lifecycle_ops WHERE account = $1 AND kind IN ('RESOLUTION_PAYOUT', 'VOID_REFUND')`,
    [account.toLowerCase()],
  );
  return Number(r?.n ?? 0);
}

/** One bond or collection movement of a market. */
export interface FundMovement {
  kind: "BOND_LOCK" | "BOND_RETURN" | "BOND_AWARD" | "BOND_SLASH" | "POOL_WITHDRAW";
  account: Address | null;
  recipient: Address | null;
  amount: bigint;
  entrySeq: number;
  at: number;
  batch: BatchRef | null;
}

/** The bond movements and pool withdrawals of a market, in journal order. */
export async function fundMovementsOf(db: SqlRunner, marketId: bigint): Promise<FundMovement[]> {
  const rows = await db.query<Row>(
    `SELECT p.kind, p.account, p.recipient, p.amount::text, p.entry_seq::text, p.at::text, ${BATCH_COLS}
       FROM lifecycle_ops p ${BATCH_JOIN}
      WHERE p.market_id = $1::numeric AND p.kind IN ('BOND_LOCK', 'BOND_RETURN', 'BOND_AWARD', 'BOND_SLASH', 'POOL_WITHDRAW')
      ORDER BY p.entry_seq, p.idx`,
    [marketId.toString()],
  );
  return rows.map((r) => ({
    kind: r.kind as FundMovement["kind"],
    account: (r.account as Address | null) ?? null,
    recipient: (r.recipient as Address | null) ?? null,
    amount: BigInt(String(r.amount)),
    entrySeq: Number(r.entry_seq),
    at: Number(r.at),
    batch: batchOf(r),
  }));
}

/** The journal position of a payout, stable across replays: `journal:<entry seq>:<op index>`. */
export function movementKeyOf(p: { entrySeq: number; idx: number }): string {
  return `journal:${p.entrySeq}:${p.idx}`;
}
