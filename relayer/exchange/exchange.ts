/**
 * The single writer the API calls (docs/journal.md). One Engine in memory; every command is applied to it
 * synchronously (so commands are totally ordered by the order of `submit` calls), appended to the journal, and
 * acknowledged only after the group-commit transaction that holds it committed.
 *
 * Restart = `Exchange.open`: an Engine restored from the newest engine snapshot (or a fresh one) replays every later
 * journal entry's command with its stored `at`, and each replayed command must produce exactly the stored ops
 * (determinism guard; a difference stops the open loudly). A follower instance's warm replay (./journal-replay.ts) can
 * be handed in instead. The exchange stores snapshots every `snapshotEvery` entries and at close.
 *
 * When a journal write fails, memory is ahead of the database (the failed commands were applied to the engine but
 * never acknowledged). The exchange then refuses new commands (SERVICE_UNAVAILABLE), rebuilds a new engine from the
 * journal, retrying with backoff until the database answers, and resumes with the rebuilt engine.
 *
 * `submit` answers values, like the engine: the engine's `Applied` (accepted, or rejected with a RejectCode), or the
 * exchange's own `Unavailable` (code SERVICE_UNAVAILABLE) while it is closed or rebuilding, or when the command could
 * not be made durable. SERVICE_UNAVAILABLE is not a RejectCode: the engine never answers it, only the exchange around
 * it does, so it is its own value and `SubmitRejectCode` names the union a caller maps.
 */
import type { Address } from "viem";
import type { Database } from "../db/client";
import type { Clock } from "../clock";
import {
  Engine,
  commandToJson,
  opsToJson,
  reportFromJson,
  reportToJson,
  type Applied,
  type Command,
  type EngineConfig,
  type ExecutionReport,
  type LifecycleEvent,
  type RejectCode,
} from "../engine";
import { openUnit, type CommitUnit } from "../db/group-commit";
import { JournalWriter, lastEntrySeq, reportsOf as storedReportsOf, saveSnapshot } from "../journal";
import { DeadlineTimer } from "./deadline-timer";
import { DeterminismError, JournalReplay } from "./journal-replay";
import { DEFAULT_SNAPSHOT_EVERY } from "./snapshot-every";
import { SnapshotReplica } from "./snapshot-replica";
import { stringifyJson } from "../../decoder";

export { DeterminismError, JournalReplay } from "./journal-replay";

export interface ExchangeLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ExchangeOptions {
  db: Database;
  clock: Clock;
  engineConfig: EngineConfig;
  log?: ExchangeLog;
  /** Told the op count of every committed command (the batcher wakes early on a full batch). */
  onCommitted?: (opCount: number) => void;
  /** Wait between rebuild attempts after a failed journal write. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Submit an `expireOrders` command when the earliest resting GTD order falls due (default true), so it leaves the
   * book and its `expired` report goes out at its expiry, not at the next command. Tests on a manual clock turn it
   * off and call `expireDue()`.
   */
  expiryTimer?: boolean;
  /**
   * Submit an `advanceLifecycle` command when the earliest lifecycle deadline (closeTime, a window's end) falls due
   * (default true): one timer, like GTD expiry. Tests on a manual clock turn it off and call `advanceLifecycleDue()`.
   */
  lifecycleTimer?: boolean;
  /**
   * An engine already replayed through part of this journal (a follower's warm replay, ./journal-replay.ts): the open
   * replays only the entries after it. One that failed, was built with another configuration or is ahead of the
   * journal (a database restored to an earlier point) is set aside and the whole journal replayed.
   */
  replay?: JournalReplay;
  /**
   * Store an engine snapshot after every this many journal entries, and at close (docs/journal.md "Snapshots"), so a
   * start replays only the entries after the newest one. Default DEFAULT_SNAPSHOT_EVERY; 0 turns snapshots off: none
   * is stored, and none restored (a start then replays, and checks, the whole journal).
   */
  snapshotEvery?: number;
  /**
   * Take the snapshots on a replica engine in a worker thread (./snapshot-replica.ts), so commands do not wait for
   * them (default true); false takes every one on this thread, holding commands meanwhile. The one at close is taken
   * here either way: no command waits then.
   */
  snapshotReplica?: boolean;
}

/**
 * The exchange took no command: it is closed or rebuilding after a failed journal write, or the command could not be
 * made durable (then it is not acknowledged, and the rebuild decides from the journal whether it happened).
 */
export interface Unavailable {
  ok: false;
  code: "SERVICE_UNAVAILABLE";
  message: string;
  details: Record<never, never>;
}

/** Every code a refused `submit` can carry: the engine's rejections and the exchange's own SERVICE_UNAVAILABLE. */
export type SubmitRejectCode = RejectCode | Unavailable["code"];

/** What `Exchange.submit` answers. */
export type Submitted<C extends Command = Command> = Applied<C> | Unavailable;

const unavailable = (message: string): Unavailable => ({ ok: false, code: "SERVICE_UNAVAILABLE", message, details: {} });

const quiet: ExchangeLog = { info() {}, warn() {}, error() {} };

/**
 * What `Exchange.open` replayed: of the journal's `entries`, only those after a warm replay's or the restored
 * snapshot's (`snapshotSeq`) were replayed (`replayedEntries`).
 */
export interface OpenStats {
  entries: number;
  replayedEntries: number;
  warm: boolean;
  snapshotSeq: number | null;
  replayMs: number;
}

/** Whether a handed-over replay can be continued: not failed, the same engine configuration, not ahead of the journal. */
async function usableReplay(opts: ExchangeOptions, replay: JournalReplay): Promise<boolean> {
  const why =
    replay.failed !== null
      ? `it failed: ${replay.failed.message}`
      : stringifyJson(replay.config) !== stringifyJson(opts.engineConfig)
        ? "it was built with another engine configuration"
        : replay.lastSeq > (await lastEntrySeq(opts.db))
          ? "it is ahead of the journal"
          : null;
  if (why !== null) opts.log?.warn({ replayedTo: replay.lastSeq }, `the warm replay is set aside (${why}): replaying the whole journal`);
  return why === null;
}

/**
 * Replays the journal into a fresh engine (after its newest usable snapshot, unless `snapshots` is false); returns it
 * with the last seq and `at`.
 */
export async function rebuildEngine(db: Database, config: EngineConfig, opts: { log?: ExchangeLog; snapshots?: boolean } = {}): Promise<JournalReplay> {
  const replay = await JournalReplay.start(db, config, opts);
  await replay.catchUp(db);
  return replay;
}

const snapshotEvery = (opts: ExchangeOptions): number => opts.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY;
const snapshotsOn = (opts: ExchangeOptions): boolean => snapshotEvery(opts) > 0;

export class Exchange {
  #engine: Engine;
  #writer: JournalWriter;
  #lastAt: number;
  #unavailable: string | null = null;
  #recovering: Promise<void> | null = null;
  #closed = false;
  /** The entry of the newest snapshot stored or restored (0: none), and the store in flight. */
  #snapshotSeq: number;
  #snapshotWrite: Promise<void> | null = null;
  /** The engine that takes the snapshots (null: none yet, or it stopped), and whether the last one failed. */
  #replica: SnapshotReplica | null = null;
  #replicaFailed = false;
  readonly #expiryTimer: DeadlineTimer;
  readonly #lifecycleTimer: DeadlineTimer;
  readonly #listeners = new Set<(reports: ExecutionReport[]) => void>();
  readonly #lifecycleListeners = new Set<(events: LifecycleEvent[]) => void>();
  readonly #opts: ExchangeOptions;
  readonly #log: ExchangeLog;

  private constructor(
    opts: ExchangeOptions,
    engine: Engine,
    writer: JournalWriter,
    lastAt: number,
    /** What the open replayed (the service's ready line reports it). */
    readonly opened: OpenStats,
  ) {
    this.#opts = opts;
    this.#log = opts.log ?? quiet;
    this.#engine = engine;
    this.#writer = writer;
    this.#lastAt = lastAt;
    this.#snapshotSeq = opened.snapshotSeq ?? 0;
    const active = () => !this.#closed && !this.unavailable; // a rebuild re-arms when it is done
    this.#expiryTimer = new DeadlineTimer(
      opts.clock,
      () => (opts.expiryTimer === false ? undefined : this.#engine.nextExpiry()),
      () => this.expireDue().catch((err) => this.#log.warn({ err }, "expiring GTD orders failed; retrying at the next command")),
      active,
    );
    this.#lifecycleTimer = new DeadlineTimer(
      opts.clock,
      () => (opts.lifecycleTimer === false ? undefined : this.#engine.nextLifecycleDeadline()),
      () => this.advanceLifecycleDue().catch((err) => this.#log.warn({ err }, "advancing market lifecycles failed")),
      active,
    );
  }

  /** Rebuilds the engine from the journal (determinism-checked) and opens the writer after its last entry. */
  static async open(opts: ExchangeOptions): Promise<Exchange> {
    const started = performance.now(); // a duration for the operator's log, not a time the engine reads
    const warm = opts.replay !== undefined && (await usableReplay(opts, opts.replay)) ? opts.replay : null;
    const replay = warm ?? (await rebuildEngine(opts.db, opts.engineConfig, { log: opts.log, snapshots: snapshotsOn(opts) }));
    const replayed = warm ? await replay.catchUp(opts.db) : replay.lastSeq - (replay.snapshotSeq ?? 0);
    const { engine, lastSeq, lastAt } = replay;
    const writer = await JournalWriter.open(opts.db);
    if (writer.nextSeq !== lastSeq + 1)
      throw new Error(`the journal grew during the rebuild (another writer?): next seq ${writer.nextSeq}, replayed ${lastSeq}`);
    const stats: OpenStats = {
      entries: lastSeq,
      replayedEntries: replayed,
      warm: warm !== null,
      snapshotSeq: replay.snapshotSeq,
      replayMs: Math.round(performance.now() - started),
    };
    opts.log?.info(stats, "exchange rebuilt from the journal");
    const exchange = new Exchange(opts, engine, writer, lastAt, stats);
    exchange.#expiryTimer.arm();
    exchange.#lifecycleTimer.arm();
    return exchange;
  }

  /**
   * Applies the lifecycle transitions due by the clock now (closing markets, windows ending), as one journaled
   * `advanceLifecycle` command; does nothing when none is due. The operator's time advance calls it after moving the
   * clock. Returns whether a command was submitted and committed.
   */
  async advanceLifecycleDue(): Promise<boolean> {
    if (this.unavailable) return false;
    const due = this.#engine.nextLifecycleDeadline();
    if (due === undefined || due > Math.max(this.#opts.clock.now(), this.#lastAt)) return false;
    const r = await this.submit({ type: "advanceLifecycle" });
    if (!r.ok) this.#log.warn({ code: r.code, message: r.message }, "advancing market lifecycles failed; retrying at the next deadline");
    return r.ok;
  }

  /**
   * Expires the GTD orders due by the clock now, as one journaled `expireOrders` command; does nothing (and journals
   * nothing) when none is due. Returns whether a command was submitted and committed.
   */
  async expireDue(): Promise<boolean> {
    if (this.unavailable) return false;
    const due = this.#engine.nextExpiry();
    if (due === undefined || due > Math.max(this.#opts.clock.now(), this.#lastAt)) return false;
    const r = await this.submit({ type: "expireOrders" });
    if (!r.ok) this.#log.warn({ code: r.code, message: r.message }, "expiring GTD orders failed; retrying at the next command");
    return r.ok;
  }

  /** The live engine, for read views only (it is replaced after a rebuild: do not keep the reference). */
  get engine(): Engine {
    return this.#engine;
  }

  /** Seq the next accepted command gets in the journal. */
  get nextSeq(): number {
    return this.#writer.nextSeq;
  }

  /** Null while accepting commands; otherwise why not. */
  get unavailable(): string | null {
    return this.#closed ? "closed" : this.#unavailable;
  }

  /**
   * Applies `command` now (synchronously, before this returns its promise) and resolves after the journal
   * transaction that holds it committed. A command the engine refuses resolves to its `Rejected` value and is not
   * journaled; `Unavailable` when the exchange takes no command or the journal write failed.
   * With `unit` (a call's open commit unit: relayer/db/group-commit.ts) the entry joins the call's own records and this
   * resolves at once: the call answers when its unit committed. Without, the entry commits on its own first.
   */
  async submit<C extends Command>(command: C, opts: { unit?: CommitUnit | null } = {}): Promise<Submitted<C>> {
    if (this.#closed) return unavailable("the exchange is closed");
    if (this.#unavailable) return unavailable(this.#unavailable);
    if (this.#writer.failed) {
      // A tick failed and the rebuild has not started yet: memory may be ahead of the database.
      this.#fail(this.#writer, this.#writer.failed);
      return unavailable(this.#unavailable ?? "the journal failed");
    }
    // `at` never goes backwards in the journal, even if the wall clock does.
    const at = Math.max(this.#opts.clock.now(), this.#lastAt);
    const applied = this.#engine.apply(command, at);
    if (!applied.ok) return applied;
    this.#lastAt = at;
    this.#expiryTimer.arm();
    this.#lifecycleTimer.arm();
    const opCount = applied.ops.length;
    const writer = this.#writer;
    const entry = {
      at,
      command: commandToJson(command),
      ops: opsToJson(applied.ops),
      opCount,
      reports: applied.reports.map((r) => ({ account: r.account, seq: r.seq, at: r.at, body: reportToJson(r) })),
    };
    // In a call's commit unit the result is answered now, the reports go out once the unit committed.
    const unit = openUnit(opts.unit);
    const appended = writer.append(entry, unit ?? undefined);
    this.#replica?.follow({ seq: writer.nextSeq - 1, at, command: entry.command, ops: entry.ops });
    this.#snapshotIfDue(appended);
    if (unit) {
      appended.then(
        () => this.#committed(opCount, applied.reports, applied.events),
        (err) => this.#fail(writer, err),
      );
      return applied;
    }
    try {
      await appended;
    } catch (err) {
      this.#fail(writer, err);
      return unavailable(`the command could not be made durable: ${(err as Error).message}`);
    }
    this.#committed(opCount, applied.reports, applied.events);
    return applied;
  }

  #committed(opCount: number, reports: ExecutionReport[], events: LifecycleEvent[] | undefined): void {
    if (opCount > 0) this.#opts.onCommitted?.(opCount);
    if (events !== undefined) {
      for (const listener of this.#lifecycleListeners) {
        try {
          listener(events);
        } catch (err) {
          this.#log.warn({ err }, "lifecycle listener threw");
        }
      }
    }
    if (reports.length > 0) {
      for (const listener of this.#listeners) {
        try {
          listener(reports);
        } catch (err) {
          this.#log.warn({ err }, "report listener threw");
        }
      }
    }
  }

  /** Execution reports of `account` from the database (committed only), seq >= fromSeq, ascending. */
  async reportsOf(account: Address, fromSeq: number, limit: number): Promise<ExecutionReport[]> {
    return (await storedReportsOf(this.#opts.db, account, fromSeq, limit)).map((r) => reportFromJson(r.body));
  }

  /** Called with each committed command's reports, in commit order. Returns the unsubscribe function. */
  onReports(listener: (reports: ExecutionReport[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Called with each committed command's market transitions (lifecycle events), in commit order. Returns the unsubscribe function. */
  onLifecycleEvents(listener: (events: LifecycleEvent[]) => void): () => void {
    this.#lifecycleListeners.add(listener);
    return () => this.#lifecycleListeners.delete(listener);
  }

  /** Resolves once a rebuild after a failed write (if any) is done. */
  async recovered(): Promise<void> {
    await this.#recovering;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#expiryTimer.clear();
    this.#lifecycleTimer.clear();
    await this.#writer.drain();
    await this.#recovering;
    await this.#snapshotWrite;
    // The state at close, so the next start replays nothing; not after a failed write (memory may be ahead then).
    // No command waits any more: it is taken here.
    await this.#dropReplica();
    const last = this.#writer.nextSeq - 1;
    if (snapshotsOn(this.#opts) && this.#unavailable === null && !this.#writer.failed && last > this.#snapshotSeq)
      await this.#storeSnapshot(last, Promise.resolve());
  }

  /**
   * After every `snapshotEvery` entries: the engine's state after the entry just appended, taken now (between two
   * commands) and stored once that entry committed. A failed commit drops it; one store at a time.
   */
  #snapshotIfDue(appended: Promise<number>): void {
    const every = snapshotEvery(this.#opts);
    const seq = this.#writer.nextSeq - 1;
    if (every <= 0) return;
    // The replica starts half-way to the snapshot, so its start (restoring the stored snapshot on its thread, catching
    // up) is over when the snapshot falls due.
    if (this.#replica === null && seq - this.#snapshotSeq >= every / 2) this.#replicaFor(seq, appended);
    if (seq - this.#snapshotSeq < every || this.#snapshotWrite) return;
    this.#snapshotSeq = seq;
    this.#snapshotWrite = this.#storeSnapshot(seq, appended).finally(() => {
      this.#snapshotWrite = null;
    });
  }

  /**
   * Takes the state after entry `seq` (the last appended) and stores it once `committed` resolves. The replica takes it
   * (started half-way to the first, or here) unless the options say no or the last replica failed: then this engine
   * takes it at once (this runs up to its first await synchronously), and the one after is a new replica's.
   * It never throws: a state too large for one string, a failed replica, commit or store only costs the next start a
   * longer replay. `takeMs` is how long the commands waited for the taking (about 0 with the replica), `replicaMs`
   * how long the replica took to answer.
   */
  async #storeSnapshot(seq: number, committed: Promise<unknown>): Promise<void> {
    try {
      const started = performance.now(); // durations for the operator's log
      const replica = this.#replicaFor(seq, committed);
      this.#replicaFailed = false; // after a failed replica, this one is taken here and a new replica takes the next
      const taking = replica?.snapshot(seq);
      const parts = taking === undefined ? this.#engine.snapshot() : null;
      const takeMs = Math.round(performance.now() - started);
      const taken = parts ?? (await taking!);
      const by = parts === null ? { by: "replica", replicaMs: Math.round(performance.now() - started) } : { by: "exchange" };
      await committed;
      await saveSnapshot(this.#opts.db, seq, taken, this.#opts.clock.now());
      const bytes = taken.reduce((n, p) => n + p.length, 0);
      this.#log.info({ seq, bytes, parts: taken.length, takeMs, ...by }, "engine snapshot stored");
    } catch (err) {
      this.#log.warn({ err, seq }, "engine snapshot not stored: the next start replays from the one before");
    }
  }

  /**
   * The replica, started now at entry `seq` (the last appended, whose commit `committed` is) if there is none; null
   * when the options want none, or when the last one failed and no new one was started since (this engine takes the
   * next snapshot then).
   */
  #replicaFor(seq: number, committed: Promise<unknown>): SnapshotReplica | null {
    if (this.#opts.snapshotReplica === false || this.#closed) return null;
    if (this.#replica !== null) return this.#replica;
    if (this.#replicaFailed) return null;
    const start = { db: this.#opts.db, config: this.#opts.engineConfig, seq, committed, log: this.#log };
    const replica = new SnapshotReplica(start, (err) => {
      this.#log.warn({ err }, "the snapshot replica stopped: this engine takes the next snapshot, a new replica the ones after");
      if (this.#replica !== replica) return;
      this.#replica = null;
      this.#replicaFailed = true;
    });
    this.#replica = replica;
    return replica;
  }

  async #dropReplica(): Promise<void> {
    const replica = this.#replica;
    this.#replica = null;
    await replica?.close();
  }

  #fail(writer: JournalWriter, err: unknown): void {
    if (writer !== this.#writer || this.#recovering) return; // already handled for this writer
    this.#unavailable = "the exchange is rebuilding from the journal after a failed write";
    void this.#dropReplica(); // it followed entries that may not have committed; the next snapshot starts a new one
    this.#log.error({ err }, "journal write failed: rebuilding the engine from the journal");
    const sleep = this.#opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    this.#recovering = (async () => {
      let delay = 100;
      while (!this.#closed) {
        try {
          await writer.drain();
          const { engine, lastSeq, lastAt } = await rebuildEngine(this.#opts.db, this.#opts.engineConfig, {
            log: this.#log,
            snapshots: snapshotsOn(this.#opts),
          });
          const next = await JournalWriter.open(this.#opts.db);
          if (next.nextSeq !== lastSeq + 1) throw new Error("the journal grew during the rebuild");
          this.#engine = engine;
          this.#writer = next;
          this.#lastAt = Math.max(this.#lastAt, lastAt);
          this.#unavailable = null;
          // The rebuilt engine's deadlines decide the next wake-ups.
          this.#expiryTimer.clear();
          this.#expiryTimer.arm();
          this.#lifecycleTimer.clear();
          this.#lifecycleTimer.arm();
          this.#log.info({ entries: lastSeq }, "exchange rebuilt after a failed write");
          return;
        } catch (e) {
          if (e instanceof DeterminismError) {
            this.#unavailable = e.message;
            this.#log.error({ err: e }, "rebuild failed for good");
            return;
          }
          this.#log.warn({ err: e, retryInMs: delay }, "rebuild failed; retrying");
          await sleep(delay);
          delay = Math.min(delay * 2, 10_000);
        }
      }
    })().finally(() => {
      this.#recovering = null;
    });
  }
}
