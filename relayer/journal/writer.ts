/**
 * JournalWriter: durable appends with GROUP COMMIT.
 *
 * `append` takes the next seq at once (so the journal order is the order of the calls, which the single-writer
 * exchange makes the engine's order) and queues the entry. One flush at a time writes every queued entry and its
 * reports in ONE transaction (two set-based inserts over a JSON parameter, the same SQL on PGlite and Postgres),
 * then resolves every waiter of that flush. Appends that arrive while a flush runs wait for the next one, which
 * starts as soon as the running one ends: under load each transaction carries many commands.
 *
 * A failed flush rejects its waiters and every later append: the caller's memory may be ahead of the database,
 * and the only safe way on is to rebuild from what the database holds (Exchange does this).
 */
import type { Address } from "viem";
import type { Database } from "../db/client";
import { lastEntrySeq } from "./store";

export interface AppendReport {
  account: Address;
  seq: number;
  at: number;
  body: string;
}

export interface AppendEntry {
  at: number;
  command: string;
  ops: string;
  opCount: number;
  reports: readonly AppendReport[];
}

interface Queued extends AppendEntry {
  seq: number;
  resolve: (seq: number) => void;
  reject: (err: Error) => void;
}

export class JournalFailedError extends Error {
  constructor(cause: unknown) {
    super(`the journal stopped after a failed write: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = "JournalFailedError";
  }
}

export interface FlushStats {
  flushes: number;
  entries: number;
  largestFlush: number;
}

export class JournalWriter {
  #nextSeq: number;
  #queue: Queued[] = [];
  #flushing: Promise<void> | null = null;
  #scheduled = false;
  #failed: JournalFailedError | null = null;
  readonly stats: FlushStats = { flushes: 0, entries: 0, largestFlush: 0 };

  private constructor(
    private readonly db: Database,
    lastSeq: number,
    private readonly maxEntriesPerFlush: number,
  ) {
    this.#nextSeq = lastSeq + 1;
  }

  /** Continues after the last stored entry. */
  static async open(db: Database, opts: { maxEntriesPerFlush?: number } = {}): Promise<JournalWriter> {
    return new JournalWriter(db, await lastEntrySeq(db), opts.maxEntriesPerFlush ?? 5000);
  }

  /** The seq the next append gets. */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  get failed(): JournalFailedError | null {
    return this.#failed;
  }

  /** Queues one entry; resolves with its seq once the transaction that holds it committed. */
  append(entry: AppendEntry): Promise<number> {
    if (this.#failed) return Promise.reject(this.#failed);
    const seq = this.#nextSeq++;
    return new Promise<number>((resolve, reject) => {
      this.#queue.push({ ...entry, seq, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves when everything appended so far is committed (or rejected). */
  async drain(): Promise<void> {
    while (this.#flushing || this.#queue.length > 0 || this.#scheduled) {
      if (this.#flushing) await this.#flushing.catch(() => {});
      else await new Promise((r) => setImmediate(r));
    }
  }

  #schedule(): void {
    if (this.#flushing || this.#scheduled) return;
    // A microtask lets the appends of the current synchronous burst join the first flush.
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#startFlush();
    });
  }

  #startFlush(): void {
    if (this.#flushing || this.#queue.length === 0) return;
    const batch = this.#queue.splice(0, this.maxEntriesPerFlush);
    this.#flushing = this.#write(batch).finally(() => {
      this.#flushing = null;
      if (this.#queue.length > 0) this.#startFlush();
    });
  }

  async #write(batch: Queued[]): Promise<void> {
    if (this.#failed) {
      for (const q of batch) q.reject(this.#failed);
      return;
    }
    // The flush's JSON is assembled from the already serialised command/ops/report texts (no second escaping):
    // the columns are json, which keeps each text verbatim.
    let reportCount = 0;
    const entries = `[${batch.map((q) => `{"seq":${q.seq},"at":${q.at},"op_count":${q.opCount},"command":${q.command},"ops":${q.ops}}`).join(",")}]`;
    const reports = `[${batch
      .flatMap((q) =>
        q.reports.map((r) => {
          reportCount++;
          return `{"account":${JSON.stringify(r.account.toLowerCase())},"seq":${r.seq},"at":${r.at},"entry_seq":${q.seq},"body":${r.body}}`;
        }),
      )
      .join(",")}]`;
    try {
      await this.db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO journal_entries (seq, at, command, ops, op_count)
           SELECT seq, at, command, ops, op_count FROM json_to_recordset($1::text::json)
             AS x(seq bigint, at bigint, command json, ops json, op_count integer)`,
          [entries],
        );
        if (reportCount > 0) {
          await tx.query(
            `INSERT INTO execution_reports (account, seq, at, entry_seq, body)
             SELECT account, seq, at, entry_seq, body FROM json_to_recordset($1::text::json)
               AS x(account text, seq integer, at bigint, entry_seq bigint, body json)`,
            [reports],
          );
        }
      });
    } catch (err) {
      this.#failed = new JournalFailedError(err);
      for (const q of batch) q.reject(this.#failed);
      for (const q of this.#queue.splice(0)) q.reject(this.#failed);
      return;
    }
    this.stats.flushes++;
    this.stats.entries += batch.length;
    this.stats.largestFlush = Math.max(this.stats.largestFlush, batch.length);
    for (const q of batch) q.resolve(q.seq);
  }
}
