/**
 * Projects the committed journal into the account histories (migration 393): each account's cash flows, reputation
 * events and trading days, kept as rows so the service's memory and its start do not grow with the journal. Each page
 * of entries after the cursor is handed to every projection, and their rows and the cursor's move are written in one
 * transaction that first locks the cursor row and checks it did not move. Instances sharing the database therefore
 * project each entry once, in journal order, and a start reads only what came after the cursor.
 *
 * Reads call `catchUp` first, so an answer includes every command already journaled. A journal write of this instance
 * also schedules a background catch-up at most BACKGROUND_SYNC_MS later, so a read after a long order load finds little
 * left to read. One run at a time; a `catchUp` that arrives during another waits for it and then reads what is left.
 */
import type { JournalOp } from "../../../decoder/journal/ops";
import type { Database, SqlRunner } from "../../../relayer/db/client";
import { opsFromJson } from "../../../relayer/journal";
import { readOpsFrom } from "../../../relayer/journal/store";
import { KeyedQueue } from "../../platform/concurrency/keyed-queue";

/** Entries per transaction. */
const PAGE_SIZE = 2_000;

/**
 * How long journal writes gather before the background catch-up reads them. A projection step per commit tick would
 * cost the order path a read and a transaction per tick (docs/api-performance.md); a second is far below what a reader
 * of these histories notices, and a read catches up itself anyway.
 */
const BACKGROUND_SYNC_MS = 1_000;

/** One journal entry, its ops parsed. */
export interface FollowedEntry {
  seq: number;
  at: number;
  ops: readonly JournalOp[];
}

/** Writes a page's rows through the page's transaction. */
export type PageWrite = (tx: SqlRunner) => Promise<void>;

/** A projection of the journal kept in rows. */
export interface JournalProjectionPart {
  /**
   * Computes the rows of `page` (entries in journal order) and answers how to write them. `resumed` is false when the
   * cursor is not where this instance left it (its first page, after another instance projected, after a page that
   * was not written): a projection keeping anything in memory between pages reads it again from its rows first.
   */
  prepare(page: readonly FollowedEntry[], resumed: boolean): Promise<PageWrite>;
}

export class JournalFollower {
  /** The cursor as this instance last left it; null before its first page and while a page is being written. */
  #leftAt: number | null = null;
  #started = false;
  #closed = false;
  #timer: NodeJS.Timeout | null = null;
  readonly #parts: JournalProjectionPart[] = [];
  readonly #reader = new KeyedQueue();
  readonly #offWrite: () => void;

  constructor(
    private readonly db: Database,
    private readonly onError: (err: unknown) => void = () => {},
    /** Entries per page (tests make pages small to cross their edges). */
    private readonly pageSize = PAGE_SIZE,
  ) {
    this.#offWrite = db.onWrite((tables) => {
      if (tables.includes("journal_entries")) this.#catchUpSoon();
    });
  }

  /**
   * Adds a projection. Only before the first page: one added later would miss the entries already projected, so that
   * is a programming error and throws.
   */
  follow(part: JournalProjectionPart): this {
    if (this.#started) throw new Error("JournalFollower.follow after the journal was read");
    this.#parts.push(part);
    return this;
  }

  /** Projects in the background what is committed now; a failure goes to `onError` and the next `catchUp` meets it again. */
  start(): void {
    this.catchUp().catch(this.onError);
  }

  #catchUpSoon(): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.start();
    }, BACKGROUND_SYNC_MS);
    this.#timer.unref();
  }

  /** Stops after the page in hand (a service stopping during a long first catch-up does not wait for all of it). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#offWrite();
    if (this.#timer) clearTimeout(this.#timer);
    await this.#reader.run("journal", async () => {});
  }

  /** Projects every entry committed since the cursor, in journal order. */
  catchUp(): Promise<void> {
    return this.#reader.run("journal", async () => {
      while (!this.#closed && (await this.#step())) {
        /* next page */
      }
    });
  }

  /**
   * One page; true when more may follow. The page is read and its rows computed outside the transaction, which then
   * holds the cursor only for the writes (PGlite has one connection: a transaction open while this thread computes
   * would hold every order's commit). If another instance moved the cursor meanwhile, nothing is written and the
   * page is read again after the new cursor.
   */
  async #step(): Promise<boolean> {
    this.#started = true;
    const after = await cursorOf(this.db);
    const rows = await readOpsFrom(this.db, after, this.pageSize);
    if (rows.length === 0) {
      if (this.#leftAt !== after) this.#leftAt = null;
      return false;
    }
    const page = rows.map((e) => ({ seq: e.seq, at: e.at, ops: opsFromJson(e.ops) }));
    const resumed = this.#leftAt === after;
    // Until this page commits, a projection's memory may be ahead of its rows: a page not written makes the next unresumed.
    this.#leftAt = null;
    const writes: PageWrite[] = [];
    for (const part of this.#parts) writes.push(await part.prepare(page, resumed));
    const last = page[page.length - 1]!.seq;
    const written = await this.db.transaction(async (tx) => {
      if ((await cursorOf(tx, "FOR UPDATE")) !== after) return false;
      for (const write of writes) await write(tx);
      await tx.query(`UPDATE account_history_cursor SET last_seq = $1 WHERE id = 1`, [last]);
      return true;
    });
    if (written) this.#leftAt = last;
    return !written || rows.length === this.pageSize;
  }
}

async function cursorOf(db: SqlRunner, lock: "" | "FOR UPDATE" = ""): Promise<number> {
  const [row] = await db.query<{ last_seq: string }>(`SELECT last_seq::text FROM account_history_cursor WHERE id = 1 ${lock}`);
  return Number(row!.last_seq);
}
