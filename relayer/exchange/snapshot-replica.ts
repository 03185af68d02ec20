/**
 * A second engine on a worker thread that takes the exchange's engine snapshots, so the order path does not wait for
 * them (docs/journal.md "Snapshots"). Taken on the exchange's thread, a snapshot holds every command for 140–210 ms
 * at a state of 64,000 held orders, once every `snapshotEvery` entries, and the pause grows with the state.
 *
 * The replica is a journal replay (./journal-replay.ts) that never ends. It starts, as a restart does, from the newest
 * stored snapshot at or before the entry it is started at and the committed entries after it, read from the database
 * here and sent over in pages; then it is fed every entry the exchange appends, in order, as the journal holds it
 * (command, `at` and ops), in one message per event-loop turn. So every entry is checked there as a restart would
 * check it. On a snapshot request the replica, having applied every entry up to it, answers with the state's texts,
 * one message a part. Nothing of this holds the exchange's thread for more than a page.
 *
 * Anything wrong (an entry that does not replay, a stored snapshot it cannot restore, the thread failing) stops the
 * replica for good: `failed` says why, a snapshot asked for is refused, and `onFailed` is told once.
 */
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import type { SqlRunner } from "../db/client";
import type { EngineConfig } from "../engine";
import { latestSnapshot, readFrom } from "../journal";
import { tsWorker } from "../ts-worker";

/** One appended journal entry, as the journal stores it. */
export interface ReplicaEntry {
  seq: number;
  at: number;
  command: string;
  ops: string;
}

/** What the replica's thread starts from: `Engine.snapshot()` texts taken after entry `seq` (`at`), or none (seq 0). */
export interface ReplicaSeed {
  config: EngineConfig;
  parts: readonly string[] | null;
  seq: number;
  at: number;
}

/** Where a replica starts: level with the journal after entry `seq`, read once `committed` resolved. */
export interface ReplicaStart {
  db: SqlRunner;
  config: EngineConfig;
  seq: number;
  committed: Promise<unknown>;
  /** Told where the replica started from once it is level with the journal. */
  log?: { info(obj: object, msg?: string): void };
  /** Entries read at a time while catching up (CATCH_UP_PAGE) and the lag that stops it (REPLICA_MAX_LAG): for tests. */
  pageSize?: number;
  maxLag?: number;
}

/** Messages to the replica's thread. */
export type ToReplica = { type: "entries"; entries: ReplicaEntry[] } | { type: "snapshot"; seq: number };
/**
 * Messages from it: the last entry applied (after each batch of entries), a snapshot's parts in order (the last one
 * says so), or why it stopped.
 */
export type FromReplica = { type: "applied"; seq: number } | { type: "part"; seq: number; text: string; last: boolean } | { type: "failed"; message: string };

/** Journal entries read and sent to the thread at a time while it catches up (one page waits while it applies one). */
export const CATCH_UP_PAGE = 2_000;

/**
 * The most entries the replica may be behind the exchange before it is stopped: the entries it has not applied wait
 * in memory (about 1 KB each), and a replica that falls this far behind (on a machine whose cores the order path keeps
 * busy) would take its snapshot late anyway. The exchange then takes one itself and starts a new replica, level with
 * the journal from that snapshot.
 */
export const REPLICA_MAX_LAG = 100_000;

interface Request {
  seq: number;
  parts: string[];
  resolve: (parts: string[]) => void;
  reject: (err: Error) => void;
}

export class SnapshotReplica {
  #worker: Worker | null = null;
  /**
   * Entries followed and snapshots asked for, in that order, not yet sent: held until the catch-up from the database
   * is done, then sent once per turn. A request sits right after the entry it is for.
   */
  #outbox: ToReplica[] = [];
  #live = false;
  #flushQueued = false;
  /** Snapshot requests in the order they were sent; the thread answers them in that order. */
  readonly #requests: Request[] = [];
  #failed: Error | null = null;
  readonly #onFailed: (err: Error) => void;
  readonly #maxLag: number;
  /** The last entry the thread applied, and the catch-up waiting for it to apply up to an entry. */
  #applied = Number.POSITIVE_INFINITY;
  #waiter: { seq: number; resume: () => void } | null = null;

  /** Starts the thread and its catch-up; `onFailed` is told once if the replica stops. */
  constructor(start: ReplicaStart, onFailed: (err: Error) => void) {
    this.#onFailed = onFailed;
    this.#maxLag = start.maxLag ?? REPLICA_MAX_LAG;
    this.#start(start).catch((err: Error) => this.#fail(err));
  }

  /** Null while the replica follows; otherwise why it stopped. */
  get failed(): Error | null {
    return this.#failed;
  }

  /** Queues an entry appended after the start's; entries go to the thread in the order they were appended. */
  follow(entry: ReplicaEntry): void {
    if (this.#failed) return;
    if (entry.seq - this.#applied > this.#maxLag) {
      this.#fail(new Error(`the snapshot replica fell ${entry.seq - this.#applied} entries behind the exchange`));
      return;
    }
    const last = this.#outbox.at(-1);
    if (last?.type === "entries") last.entries.push(entry);
    else this.#outbox.push({ type: "entries", entries: [entry] });
    if (this.#flushQueued || !this.#live) return;
    this.#flushQueued = true;
    setImmediate(() => this.#flush());
  }

  /** The state after entry `seq`, the last entry followed, as `Engine.snapshot()` texts. */
  snapshot(seq: number): Promise<string[]> {
    if (this.#failed) return Promise.reject(this.#failed);
    const answer = new Promise<string[]>((resolve, reject) => this.#requests.push({ seq, parts: [], resolve, reject }));
    this.#outbox.push({ type: "snapshot", seq });
    this.#flush();
    return answer;
  }

  /** Stops the thread; a request still waiting is refused. */
  async close(): Promise<void> {
    this.#stop(new Error("the snapshot replica is closed"));
    await this.#worker?.terminate();
  }

  async #start({ db, config, seq, committed, log, pageSize = CATCH_UP_PAGE }: ReplicaStart): Promise<void> {
    await committed;
    const started = performance.now(); // a duration for the operator's log
    const stored = await latestSnapshot(db, seq);
    const usable = stored?.matchesJournal === true ? stored : null;
    const seed: ReplicaSeed = { config, parts: usable?.parts ?? null, seq: usable?.seq ?? 0, at: usable?.at ?? 0 };
    if (this.#failed) return; // closed meanwhile
    this.#applied = seed.seq;
    const worker = tsWorker(join(__dirname, "snapshot-replica-worker.ts"), seed);
    this.#worker = worker;
    worker.unref(); // a replica never keeps the process alive; the exchange's close terminates it
    worker.on("message", (m: FromReplica) => this.#onMessage(m));
    worker.on("error", (err) => this.#fail(err));
    worker.on("exit", (code) => this.#fail(new Error(`the snapshot replica's thread stopped (exit ${code})`)));
    for (let after = seed.seq, sent = seed.seq; after < seq && !this.#failed; ) {
      const entries = await readFrom(db, after, Math.min(pageSize, seq - after));
      if (entries.length === 0) throw new Error(`the journal ends at entry ${after}, before entry ${seq}`);
      await this.#appliedUpTo(sent); // the page before this one: at most two pages wait in the thread's queue
      this.#post({ type: "entries", entries });
      sent = after;
      after = entries.at(-1)!.seq;
    }
    this.#live = true;
    this.#flush();
    if (this.#failed) return;
    const stats = { snapshotSeq: usable?.seq ?? null, replayedEntries: seq - seed.seq, readMs: Math.round(performance.now() - started) };
    log?.info(stats, "snapshot replica started");
  }

  #flush(): void {
    this.#flushQueued = false;
    if (this.#failed || !this.#live) return;
    for (const message of this.#outbox.splice(0)) this.#post(message);
  }

  #post(message: ToReplica): void {
    this.#worker?.postMessage(message);
  }

  /** Resolves once the thread applied entry `seq` (or the replica stopped). */
  #appliedUpTo(seq: number): Promise<void> {
    if (this.#applied >= seq || this.#failed) return Promise.resolve();
    return new Promise((resume) => {
      this.#waiter = { seq, resume };
    });
  }

  #onMessage(m: FromReplica): void {
    if (m.type === "applied") {
      this.#applied = m.seq;
      if (this.#waiter !== null && m.seq >= this.#waiter.seq) this.#resumeWaiter();
      return;
    }
    const request = this.#requests[0];
    if (m.type === "failed" || request === undefined || request.seq !== m.seq) {
      this.#fail(new Error(m.type === "failed" ? m.message : `the snapshot replica answered for entry ${m.seq} unasked`));
      return;
    }
    request.parts.push(m.text);
    if (!m.last) return;
    this.#requests.shift();
    request.resolve(request.parts);
  }

  #fail(err: Error): void {
    if (this.#failed) return;
    this.#stop(err);
    this.#onFailed(err);
    void this.#worker?.terminate();
  }

  #stop(err: Error): void {
    this.#failed ??= err;
    this.#outbox = [];
    for (const r of this.#requests.splice(0)) r.reject(err);
    this.#resumeWaiter();
  }

  #resumeWaiter(): void {
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.resume();
  }
}
