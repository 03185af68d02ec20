/**
 * The journal store: reads of journal_entries / execution_reports / ledger_batches (migration 100_journal.sql).
 * Writes of entries go through JournalWriter (group commit); batch rows are written by the batcher.
 */
import type { Address } from "viem";
import type { SqlRunner } from "../db/client";

/** One journal entry as stored: the command and its ops as JSON text. */
export interface StoredEntry {
  seq: number;
  at: number;
  command: string;
  ops: string;
  opCount: number;
}

/** One execution report as stored; `body` is the report JSON. */
export interface StoredReport {
  account: Address;
  seq: number;
  at: number;
  entrySeq: number;
  body: string;
}

export type BatchStatus = "pending" | "sent" | "confirmed";

export interface BatchRecord {
  nonce: bigint;
  firstSeq: number;
  lastSeq: number;
  opCount: number;
  prevRoot: `0x${string}`;
  root: `0x${string}`;
  prevCommitment: `0x${string}`;
  commitment: `0x${string}`;
  payloadHash: `0x${string}`;
  payload: `0x${string}`;
  status: BatchStatus;
  txHash: `0x${string}` | null;
  blockNumber: bigint | null;
  error: string | null;
  attempts: number;
  createdAt: number;
  updatedAt: number;
}

type Row = Record<string, unknown>;
const num = (v: unknown): number => Number(v);

const entryOf = (r: Row): StoredEntry => ({ seq: num(r.seq), at: num(r.at), command: String(r.command), ops: String(r.ops), opCount: num(r.op_count) });

export function batchOf(r: Row): BatchRecord {
  return {
    nonce: BigInt(r.nonce as string),
    firstSeq: num(r.first_seq),
    lastSeq: num(r.last_seq),
    opCount: num(r.op_count),
    prevRoot: r.prev_root as `0x${string}`,
    root: r.root as `0x${string}`,
    prevCommitment: r.prev_commitment as `0x${string}`,
    commitment: r.commitment as `0x${string}`,
    payloadHash: r.payload_hash as `0x${string}`,
    payload: r.payload as `0x${string}`,
    status: r.status as BatchStatus,
    txHash: (r.tx_hash as `0x${string}` | null) ?? null,
    blockNumber: r.block_number == null ? null : BigInt(r.block_number as string),
    error: (r.error as string | null) ?? null,
    attempts: num(r.attempts),
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  };
}

/** The highest stored entry seq, 0 for an empty journal. */
export async function lastEntrySeq(db: SqlRunner): Promise<number> {
  const [row] = await db.query<{ s: string | null }>(`SELECT max(seq)::text AS s FROM journal_entries`);
  return row?.s == null ? 0 : Number(row.s);
}

/** Entries with seq > `afterSeq`, in order, at most `limit`. */
export async function readFrom(db: SqlRunner, afterSeq: number, limit = 5000): Promise<StoredEntry[]> {
  const rows = await db.query<Row>(
    `SELECT seq::text, at::text, command::text, ops::text, op_count FROM journal_entries WHERE seq > $1 ORDER BY journal_entries.seq LIMIT $2`,
    [afterSeq, limit],
  );
  return rows.map(entryOf);
}

/** The ops of entries with seq > `afterSeq` that have any, in order, at most `limit` (read models of the ops alone). */
export async function readOpsFrom(db: SqlRunner, afterSeq: number, limit = 5000): Promise<Pick<StoredEntry, "seq" | "at" | "ops">[]> {
  const rows = await db.query<Row>(
    `SELECT seq::text, at::text, ops::text FROM journal_entries WHERE seq > $1 AND op_count > 0 ORDER BY journal_entries.seq LIMIT $2`,
    [afterSeq, limit],
  );
  return rows.map((r) => ({ seq: num(r.seq), at: num(r.at), ops: String(r.ops) }));
}

/**
 * Every entry in order, page by page (for rebuilds). The next page is asked for before this one is handed out, so the
 * database reads it while the caller replays this one.
 */
export async function* readAll(db: SqlRunner, afterSeq = 0, pageSize = 5000): AsyncGenerator<StoredEntry> {
  let page = await readFrom(db, afterSeq, pageSize);
  for (;;) {
    const next = page.length < pageSize ? null : readFrom(db, page[page.length - 1].seq, pageSize);
    // A caller that stops early never awaits it: its failure must not become an unhandled rejection then.
    next?.catch(() => undefined);
    for (const e of page) yield e;
    if (next === null) return;
    page = await next;
  }
}

/** Reports of `account` with seq >= fromSeq, ascending, at most `limit`. */
export async function reportsOf(db: SqlRunner, account: Address, fromSeq: number, limit: number): Promise<StoredReport[]> {
  const rows = await db.query<Row>(
    `SELECT account, seq, at::text, entry_seq::text, body::text FROM execution_reports WHERE account = $1 AND seq >= $2 ORDER BY execution_reports.seq LIMIT $3`,
    [account.toLowerCase(), fromSeq, limit],
  );
  return rows.map((r) => ({ account: r.account as Address, seq: num(r.seq), at: num(r.at), entrySeq: num(r.entry_seq), body: String(r.body) }));
}

/** The highest report seq per account (0 when none): lets a rebuilt engine be checked against the store. */
export async function lastReportSeq(db: SqlRunner, account: Address): Promise<number> {
  const [row] = await db.query<{ s: number | null }>(`SELECT max(seq) AS s FROM execution_reports WHERE account = $1`, [account.toLowerCase()]);
  return row?.s == null ? 0 : Number(row.s);
}

/** Batches, newest first (for the API), at most `limit`. */
export async function listBatches(db: SqlRunner, limit = 50, beforeNonce?: bigint): Promise<BatchRecord[]> {
  const rows = await db.query<Row>(
    `SELECT nonce::text, first_seq::text, last_seq::text, op_count, prev_root, root, prev_commitment, commitment, payload_hash, payload,
            status, tx_hash, block_number::text, error, attempts, created_at::text, updated_at::text
       FROM ledger_batches WHERE ($1::bigint IS NULL OR nonce < $1::bigint) ORDER BY ledger_batches.nonce DESC LIMIT $2`,
    [beforeNonce === undefined ? null : beforeNonce.toString(), limit],
  );
  return rows.map(batchOf);
}
