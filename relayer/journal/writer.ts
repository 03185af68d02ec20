/**
 * JournalWriter: durable appends with GROUP COMMIT (relayer/db/group-commit.ts).
 *
 * `append` takes the next seq at once (so the journal order is the order of the calls, which the single-writer
 * exchange makes the engine's order) and adds the entry and its reports to a commit unit: the caller's (a trading
 * call's unit, which also holds the call's idempotency and call records) or one of its own. The database's committer
 * writes every ready unit in ONE transaction per tick (set-based inserts over a JSON parameter, the same SQL on PGlite
 * and Postgres), the next tick starting as soon as the previous returned: under load each transaction carries many
 * commands. Waiters resolve in seq order.
 *
 * A failed tick rejects its waiters and every later append: the caller's memory may be ahead of the database,
 * and the only safe way on is to rebuild from what the database holds (Exchange does this).
 */
import type { Address } from "viem";
import type { Database } from "../db/client";
import { CommitUnit, groupCommitterOf, rowSink, statementSink, type GroupCommitter } from "../db/group-commit";
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

interface Pending {
  seq: number;
  done: Promise<number>;
  committed: boolean;
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
  /** Ticks that committed entries of this writer. */
  flushes: number;
  entries: number;
  /** Most entries of this writer in one tick. */
  largestFlush: number;
}

export const JOURNAL_ENTRIES_SINK = rowSink(
  "journal_entries",
  `INSERT INTO journal_entries (seq, at, command, ops, op_count)
   SELECT seq, at, command, ops, op_count FROM json_to_recordset($1::text::json)
     AS x(seq bigint, at bigint, command json, ops json, op_count integer)`,
);

/**
 * An entry whose ops text is this long or longer (a market's finality: 100,000 holders are about 4 MB) is inserted by
 * its own statement, with the ops as a parameter of their own: through the set-based insert the text would be parsed
 * as JSON twice (the rows' array, then the column's value), which costs about a third of the write.
 */
export const LARGE_OPS_CHARS = 64 * 1024;

// `::text::json`: a parameter the driver sees typed json would be serialised again (a JSON string of the text).
export const JOURNAL_ENTRY_SINK = statementSink(
  "journal_entries (one large entry)",
  `INSERT INTO journal_entries (seq, at, command, ops, op_count) VALUES ($1, $2, $3::text::json, $4::text::json, $5)`,
);

export const EXECUTION_REPORTS_SINK = rowSink(
  "execution_reports",
  `INSERT INTO execution_reports (account, seq, at, entry_seq, body)
   SELECT account, seq, at, entry_seq, body FROM json_to_recordset($1::text::json)
     AS x(account text, seq integer, at bigint, entry_seq bigint, body json)`,
);

export class JournalWriter {
  #nextSeq: number;
  /** Appended, not yet resolved, in seq order. */
  #pending: Pending[] = [];
  #failed: JournalFailedError | null = null;
  #lastTick = -1;
  #tickEntries = 0;
  readonly stats: FlushStats = { flushes: 0, entries: 0, largestFlush: 0 };
  readonly #committer: GroupCommitter;

  private constructor(db: Database, lastSeq: number) {
    this.#nextSeq = lastSeq + 1;
    const committer = groupCommitterOf(db);
    if (!committer) throw new Error("the journal needs a database handle (not a transaction)");
    this.#committer = committer;
  }

  /** Continues after the last stored entry. */
  static async open(db: Database): Promise<JournalWriter> {
    return new JournalWriter(db, await lastEntrySeq(db));
  }

  /** The seq the next append gets. */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  get failed(): JournalFailedError | null {
    return this.#failed;
  }

  /**
   * Adds one entry to `unit` (the caller seals it) or, without one, to a unit of its own, sealed at once. Resolves
   * with its seq once the transaction that holds it committed.
   */
  append(entry: AppendEntry, unit?: CommitUnit): Promise<number> {
    if (this.#failed) return Promise.reject(this.#failed);
    const seq = this.#nextSeq++;
    const own = unit ?? new CommitUnit();
    const pending = { seq, committed: false } as Pending;
    pending.done = new Promise<number>((resolve, reject) => {
      pending.resolve = resolve;
      pending.reject = reject;
    });
    pending.done.catch(() => {}); // the caller reads the rejection; never unhandled
    this.#pending.push(pending);
    // The entry's JSON is assembled from the already serialised command/ops/report texts (no second escaping):
    // the columns are json, which keeps each text verbatim.
    if (entry.ops.length >= LARGE_OPS_CHARS) own.add(this.#committer, JOURNAL_ENTRY_SINK, [seq, entry.at, entry.command, entry.ops, entry.opCount], seq);
    else
      own.add(
        this.#committer,
        JOURNAL_ENTRIES_SINK,
        `{"seq":${seq},"at":${entry.at},"op_count":${entry.opCount},"command":${entry.command},"ops":${entry.ops}}`,
        seq,
      );
    for (const r of entry.reports) {
      own.add(
        this.#committer,
        EXECUTION_REPORTS_SINK,
        `{"account":${JSON.stringify(r.account.toLowerCase())},"seq":${r.seq},"at":${r.at},"entry_seq":${seq},"body":${r.body}}`,
      );
    }
    own.onCommit(() => this.#committed(pending));
    own.onFail((err) => this.#fail(err));
    if (!unit) void own.seal();
    return pending.done;
  }

  /** Resolves when everything appended so far is committed (or rejected). */
  async drain(): Promise<void> {
    while (this.#pending.length > 0) await this.#pending[this.#pending.length - 1].done.catch(() => {});
  }

  #committed(p: Pending): void {
    p.committed = true;
    const tick = this.#committer.stats.ticks;
    if (tick !== this.#lastTick) {
      this.#lastTick = tick;
      this.#tickEntries = 0;
      this.stats.flushes++;
    }
    this.stats.entries++;
    this.stats.largestFlush = Math.max(this.stats.largestFlush, ++this.#tickEntries);
    // Ticks never leave a gap, so the committed ones form a prefix once the tick is done: resolve in seq order.
    while (this.#pending.length > 0 && this.#pending[0].committed) {
      const head = this.#pending.shift()!;
      head.resolve(head.seq);
    }
  }

  #fail(err: unknown): void {
    if (!this.#failed) this.#failed = err instanceof JournalFailedError ? err : new JournalFailedError(err);
    const failed = this.#failed;
    for (const p of this.#pending.splice(0)) {
      if (p.committed) p.resolve(p.seq);
      else p.reject(failed);
    }
  }
}
