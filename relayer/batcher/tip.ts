/**
 * The batcher's tip: the ledger after its last batch row, from which the next batch's root is computed. Rebuilt at
 * open (or after a failed build) from the newest ledger snapshot and the journal, and snapshotted (migration
 * 130_ledger_snapshots.sql, docs/journal.md "Snapshots") so a start applies only the ops of the rows after the
 * snapshot. A snapshot is used only when its balances give exactly the root its row recorded (the root published on
 * chain), so a wrong one is recognised, not used.
 */
import type { Address } from "viem";
import { applyOps, LedgerState, SUPPLY_ACCOUNT } from "../../decoder";
import type { SqlRunner } from "../db/client";
import { opsFromJson, readAll, type BatchRecord } from "../journal";
import type { BatcherLog } from "./log";

/** Where the published ops end: entry `seq`, of whose `total` ops the first `taken` are in batches. */
export interface Cursor {
  seq: number;
  taken: number;
  total: number;
}

/** Every non-zero balance, the supply's included, as JSON text. */
function balancesText(ledger: LedgerState): string {
  const rows = [...ledger.entries(), ...ledger.accountEntries(SUPPLY_ACCOUNT)].map((e) => [e.account, e.assetId.toString(), e.balance.toString()]);
  return JSON.stringify(rows);
}

function ledgerOf(text: string): LedgerState {
  const ledger = new LedgerState();
  for (const [account, assetId, balance] of JSON.parse(text) as [`0x${string}`, string, string][]) ledger.setBalance(account, BigInt(assetId), BigInt(balance));
  return ledger;
}

/** Stores the ledger after batch `nonce` (ends at `cursor`) and drops the older snapshots. */
export async function saveLedgerSnapshot(db: SqlRunner, nonce: bigint, cursor: Cursor, ledger: LedgerState, createdAt: number): Promise<void> {
  await db.query(
    `INSERT INTO ledger_snapshots (nonce, cursor_seq, cursor_taken, cursor_total, balances, created_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (nonce) DO NOTHING`,
    [nonce.toString(), cursor.seq, cursor.taken, cursor.total, balancesText(ledger), createdAt],
  );
  await db.query(`DELETE FROM ledger_snapshots WHERE nonce < $1`, [nonce.toString()]);
}

/**
 * The ledger after the newest snapshotted row at or before batch `maxNonce`, if its balances give that row's root;
 * null when there is none, and `mismatch` (with the nonce) when one exists but does not give its root.
 */
export async function latestLedgerSnapshot(
  db: SqlRunner,
  maxNonce: bigint,
): Promise<{ nonce: bigint; cursor: Cursor; ledger: LedgerState } | { mismatch: bigint } | null> {
  const [row] = await db.query<{ nonce: string; cursor_seq: string; cursor_taken: number; cursor_total: number; balances: string; root: string }>(
    `SELECT s.nonce::text, s.cursor_seq::text, s.cursor_taken, s.cursor_total, s.balances, b.root
     FROM ledger_snapshots s JOIN ledger_batches b ON b.nonce = s.nonce WHERE s.nonce <= $1 ORDER BY s.nonce DESC LIMIT 1`,
    [maxNonce.toString()],
  );
  if (!row) return null;
  const ledger = ledgerOf(row.balances);
  if ((await ledger.root()).toLowerCase() !== row.root.toLowerCase()) return { mismatch: BigInt(row.nonce) };
  return { nonce: BigInt(row.nonce), cursor: { seq: Number(row.cursor_seq), taken: row.cursor_taken, total: row.cursor_total }, ledger };
}

/**
 * The ledger after every batch row and where those rows end (Cursor: batches cover the journal's ops back to back, so
 * the sum of the rows' op_count fixes it), rebuilt at open or after a failed build: from the newest ledger snapshot
 * that gives its row's root and the ops of the rows after it, else from every op of the
 * journal up to the last row.
 */
export async function tipFromJournal(
  db: SqlRunner,
  treasury: Address,
  tipRow: BatchRecord | null,
  log: BatcherLog,
): Promise<{ tip: LedgerState; cursor: Cursor; snapshotNonce: bigint | null }> {
  if (!tipRow) return { tip: new LedgerState(), cursor: { seq: 0, taken: 0, total: 0 }, snapshotNonce: null };
  let from = await latestLedgerSnapshot(db, tipRow.nonce);
  if (from && "mismatch" in from) {
    log.warn({ nonce: from.mismatch.toString() }, "the ledger snapshot does not give its batch's root: set aside, rebuilding from the whole journal");
    from = null;
  }
  const tip = from?.ledger ?? new LedgerState();
  const cursor: Cursor = from ? { ...from.cursor } : { seq: 0, taken: 0, total: 0 };
  const [{ n }] = await db.query<{ n: string }>(`SELECT coalesce(sum(op_count), 0)::text AS n FROM ledger_batches WHERE nonce > $1`, [
    (from?.nonce ?? 0n).toString(),
  ]);
  let left = Number(n);
  // The entry the snapshot's row ended inside, if it did, is read again for its remaining ops.
  const skipIn = cursor.taken < cursor.total ? cursor.seq : -1;
  for await (const e of readAll(db, skipIn > 0 ? cursor.seq - 1 : cursor.seq)) {
    if (e.seq > tipRow.lastSeq) break;
    const skip = e.seq === skipIn ? cursor.taken : 0;
    const take = Math.min(e.opCount - skip, left);
    if (skip + take < e.opCount && e.seq !== tipRow.lastSeq)
      throw new Error(`the batches cover ${n} more ops, which end inside entry ${e.seq}, before batch ${tipRow.nonce}'s last`);
    if (take > 0) applyOps(tip, opsFromJson(e.ops).slice(skip, skip + take), { treasury });
    left -= take;
    Object.assign(cursor, { seq: e.seq, taken: skip + take, total: e.opCount });
  }
  if (left !== 0 || cursor.seq !== tipRow.lastSeq)
    throw new Error(`the batches cover ${n} ops, but the journal up to entry ${tipRow.lastSeq} does not hold them`);
  const root = await tip.root();
  if (root.toLowerCase() !== tipRow.root.toLowerCase())
    throw new Error(`the journal up to entry ${tipRow.lastSeq} gives root ${root}, but batch ${tipRow.nonce} recorded ${tipRow.root}`);
  log.info(
    { lastBatch: tipRow.nonce.toString(), snapshotNonce: from ? from.nonce.toString() : null, opsApplied: Number(n) },
    "the ledger after the last batch is rebuilt",
  );
  return { tip, cursor, snapshotNonce: from?.nonce ?? null };
}
