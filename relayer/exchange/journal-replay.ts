/**
 * An engine kept level with the committed journal by replaying it: from its start once, then only what was committed
 * since (`catchUp`). `Exchange.open` builds one on a restart; a follower instance keeps one warm while another instance
 * leads and hands it over when it takes the lock, so a take-over replays only the tail (docs/scale-out.md).
 * Every entry is checked: its command, applied with its stored `at`, must produce exactly its stored ops.
 * `JournalReplay.start` begins from the newest engine snapshot when there is a usable one (docs/journal.md
 * "Snapshots"), so only the entries after it are replayed.
 */
import type { SqlRunner } from "../db/client";
import { Engine, commandFromJson, opsToJson, sameOps, type Applied, type EngineConfig } from "../engine";
import { lastEntrySeq, latestSnapshot, readAll } from "../journal";

/** Where a replay's warnings go (a snapshot set aside). */
export interface ReplayLog {
  warn(obj: object, msg?: string): void;
}

/** A journal entry replayed to different ops than were stored: the engine is not deterministic over its journal. */
export class DeterminismError extends Error {
  constructor(
    readonly seq: number,
    detail: string,
  ) {
    super(`journal entry ${seq} does not replay: ${detail}`);
    this.name = "DeterminismError";
  }
}

export class JournalReplay {
  readonly engine: Engine;
  /** The last entry applied (0: none) and its `at`. */
  lastSeq = 0;
  lastAt = 0;
  /** Set when an entry did not replay: the engine must not be used then. */
  failed: Error | null = null;
  /** The entry whose snapshot the engine was restored from, or null when it replayed from the journal's start. */
  readonly snapshotSeq: number | null;

  constructor(
    readonly config: EngineConfig,
    from?: { engine: Engine; seq: number; at: number },
  ) {
    this.engine = from?.engine ?? new Engine(config);
    this.lastSeq = from?.seq ?? 0;
    this.lastAt = from?.at ?? 0;
    this.snapshotSeq = from?.seq ?? null;
  }

  /**
   * A replay from the newest snapshot at or before the journal's last entry, or from the start when there is none or
   * it cannot be used (taken after an entry the journal no longer holds as it was, under another engine configuration
   * or layout): then it is set aside with a warning, and the whole journal is replayed, as with `snapshots: false`.
   */
  static async start(db: SqlRunner, config: EngineConfig, opts: { log?: ReplayLog; snapshots?: boolean } = {}): Promise<JournalReplay> {
    if (opts.snapshots === false) return new JournalReplay(config);
    const last = await lastEntrySeq(db);
    try {
      const snap = await latestSnapshot(db, last);
      if (snap === null) return new JournalReplay(config);
      if (!snap.matchesJournal) throw new Error(`journal entry ${snap.seq} is not the one it was taken after`);
      return new JournalReplay(config, { engine: Engine.fromSnapshot(config, snap.parts), seq: snap.seq, at: snap.at });
    } catch (err) {
      opts.log?.warn({ err }, "the engine snapshot is set aside: replaying the whole journal");
      return new JournalReplay(config);
    }
  }

  /** Applies every entry committed after `lastSeq`, in order; returns how many. Throws DeterminismError for one that does not replay. */
  async catchUp(db: SqlRunner): Promise<number> {
    if (this.failed) throw this.failed;
    let applied = 0;
    try {
      for await (const e of readAll(db, this.lastSeq)) {
        this.applyEntry(e.seq, e.at, e.command, e.ops);
        applied++;
      }
    } catch (err) {
      // A read that failed leaves the entries applied so far good (each is applied whole), so a later catch-up goes on
      // from there; an entry that did not replay leaves an engine that must not be used.
      if (err instanceof DeterminismError) this.failed = err;
      throw err;
    }
    return applied;
  }

  /** Applies one journal entry, the next after `lastSeq`; throws DeterminismError when it does not replay to `ops`. */
  applyEntry(seq: number, at: number, command: string, ops: string): void {
    if (seq !== this.lastSeq + 1) throw new DeterminismError(seq, `the journal has a gap after entry ${this.lastSeq}`);
    let result: Applied;
    try {
      result = this.engine.apply(commandFromJson(command), at);
    } catch (err) {
      throw new DeterminismError(seq, `the engine failed on the stored command: ${(err as Error).message}`);
    }
    if (!result.ok) throw new DeterminismError(seq, `the engine refused the stored command: ${result.code} ${result.message}`);
    if (!sameOps(ops, result.ops)) throw new DeterminismError(seq, `ops ${opsToJson(result.ops)} differ from the stored ${ops}`);
    this.lastSeq = seq;
    this.lastAt = at;
  }
}
