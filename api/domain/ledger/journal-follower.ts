/**
 * Reads the committed journal once from its start, then only what was written since: the in-memory projections that
 * answer from the journal alone (an account's reputation events, the days it traded) hand each entry to `apply`.
 * One reader at a time; a `catchUp` that arrives during another waits for it and then reads what is left.
 */
import type { JournalOp } from "../../../decoder/journal/ops";
import type { SqlRunner } from "../../../relayer/db/client";
import { opsFromJson } from "../../../relayer/journal";
import { readOpsFrom } from "../../../relayer/journal/store";
import { KeyedQueue } from "../../platform/concurrency/keyed-queue";

const PAGE = 5_000;

export class JournalFollower {
  #lastSeq = 0;
  readonly #reader = new KeyedQueue();

  constructor(
    private readonly db: SqlRunner,
    private readonly apply: (seq: number, at: number, ops: readonly JournalOp[]) => void,
  ) {}

  /** Applies every entry committed since the last read, in journal order. */
  catchUp(): Promise<void> {
    return this.#reader.run("journal", async () => {
      for (;;) {
        const entries = await readOpsFrom(this.db, this.#lastSeq, PAGE);
        for (const e of entries) {
          this.apply(e.seq, e.at, opsFromJson(e.ops));
          this.#lastSeq = e.seq;
        }
        if (entries.length < PAGE) return;
      }
    });
  }
}
