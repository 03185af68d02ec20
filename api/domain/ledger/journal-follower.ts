/**
 * Reads the committed journal once from its start, then only what was written since, and hands each entry to every
 * in-memory projection that answers from the journal alone (an account's reputation events, its cash flows, the days
 * it traded). The service keeps one follower for all of them, so a restart reads the journal once, not once per
 * projection, and `start` reads it in the background so the first read of a projection does not wait for it.
 * One reader at a time; a `catchUp` that arrives during another waits for it and then reads what is left.
 */
import type { JournalOp } from "../../../decoder/journal/ops";
import type { SqlRunner } from "../../../relayer/db/client";
import { opsFromJson } from "../../../relayer/journal";
import { readOpsFrom } from "../../../relayer/journal/store";
import { KeyedQueue } from "../../platform/concurrency/keyed-queue";

const PAGE = 5_000;

/** A projection's reading of one journal entry. */
export type JournalApply = (seq: number, at: number, ops: readonly JournalOp[]) => void;

export class JournalFollower {
  #lastSeq = 0;
  #closed = false;
  readonly #applies: JournalApply[] = [];
  readonly #reader = new KeyedQueue();

  constructor(private readonly db: SqlRunner) {}

  /**
   * Adds a projection. Only before the first read: one added later would miss the entries already read, so that is a
   * programming error and throws.
   */
  follow(apply: JournalApply): this {
    if (this.#lastSeq > 0) throw new Error("JournalFollower.follow after the journal was read");
    this.#applies.push(apply);
    return this;
  }

  /** Reads in the background what is committed now; a failure is left for the next `catchUp` to meet again. */
  start(onError: (err: unknown) => void): void {
    this.catchUp().catch(onError);
  }

  /** Stops reading after the page in hand (a service stopping during a long first read does not wait for all of it). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#reader.run("journal", async () => {});
  }

  /** Applies every entry committed since the last read, in journal order, to every projection. */
  catchUp(): Promise<void> {
    return this.#reader.run("journal", async () => {
      while (!this.#closed) {
        const entries = await readOpsFrom(this.db, this.#lastSeq, PAGE);
        for (const e of entries) {
          const ops = opsFromJson(e.ops);
          for (const apply of this.#applies) apply(e.seq, e.at, ops);
          this.#lastSeq = e.seq;
        }
        if (entries.length < PAGE) return;
      }
    });
  }
}
