/**
 * The batcher's ledger snapshots (migration 130_ledger_snapshots.sql, docs/journal.md "Snapshots"): the ledger after
 * a batch row and where that row's ops end in the journal. A start restores the newest one and applies only the ops
 * of the rows after it. A snapshot is used only when its balances give exactly the root its row recorded (the root
 * published on chain), so a wrong one is recognised, not used.
 */
import { LedgerState, SUPPLY_ACCOUNT } from "../../decoder";
import type { SqlRunner } from "../db/client";

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
