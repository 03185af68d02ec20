/**
 * GROUP COMMIT of durable records, shared by every writer of one database (docs/api-performance.md).
 *
 * A `CommitUnit` is everything one piece of work must make durable together: for a trading call, its journal entries
 * and execution reports, its Idempotency-Key record and its public call record. Rows are JSON texts handed to a
 * `RowSink` (one set-based INSERT over a JSON parameter per table, the same SQL on PGlite and Postgres).
 *
 * Units queue in the order they were placed (their first row). One tick at a time writes the longest prefix of SEALED
 * units in ONE transaction, then resolves them; the next tick starts as soon as the previous one returned (adaptive,
 * like Postgres's own group commit: no timer, so an idle service commits at once and a busy one commits many units
 * per transaction). A unit may hold an `order` range (journal seqs): a tick never takes a unit whose range reaches
 * past a unit it leaves queued, so the journal has no gap whatever moment the process dies.
 *
 * A failed tick rejects its units and every queued one (their rows may depend on the failed ones) and calls their
 * failure hooks synchronously, before any other code runs: the journal writer stops at once (relayer/journal).
 *
 * A call's unit is passed by hand to what writes for it (`Exchange.submit(command, { unit })`): its rows join the call's
 * unit instead of committing alone, and the call answers once the unit committed. (It used to travel in an
 * AsyncLocalStorage; its promise hooks cost every promise of the process, about 5% of the service's thread.)
 */
import type { Database, Statement } from "./client";
import { ANY_TABLE, writtenTables } from "./written-tables";
import { perDatabase } from "./per-database";

/**
 * One table's insert. A set-based sink's `sql` takes `$1`, a JSON array of the rows (text); a statement sink's runs
 * once per row with that row's own parameters. Sinks write in definition order.
 */
export interface RowSink {
  readonly name: string;
  readonly sql: string;
  readonly rank: number;
  readonly statement?: true;
}

/** A row of a commit unit: JSON text for a set-based sink, the parameters for a statement sink. */
export type SinkRow = string | readonly unknown[];

let sinks = 0;
export function rowSink(name: string, sql: string): RowSink {
  return { name, sql, rank: sinks++ };
}

/**
 * A sink whose rows are each one statement: for a row too large to pass through a JSON array (a market's finality:
 * megabytes of ops), which the set-based insert would parse twice, once as the array and once as the column's value.
 */
export function statementSink(name: string, sql: string): RowSink {
  return { name, sql, rank: sinks++, statement: true };
}

type Hook = (err?: unknown) => void;

export class CommitUnit {
  readonly rows = new Map<RowSink, SinkRow[]>();
  /** Lowest and highest `order` of the unit's rows (journal seqs), Infinity/-Infinity when none. */
  lo = Number.POSITIVE_INFINITY;
  hi = Number.NEGATIVE_INFINITY;
  #sealed = false;
  #settled = false;
  #committer: GroupCommitter | null = null;
  readonly #commitHooks: Hook[] = [];
  readonly #failHooks: Hook[] = [];
  readonly committed: Promise<void>;
  #resolve!: () => void;
  #reject!: (err: unknown) => void;

  constructor() {
    this.committed = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.committed.catch(() => {}); // a rejection is read by whoever awaits; never unhandled
  }

  get sealed(): boolean {
    return this.#sealed;
  }

  get settled(): boolean {
    return this.#settled;
  }

  /** Adds one row (JSON text, or a statement sink's parameters) and places the unit in `committer`'s queue on its first row. */
  add(committer: GroupCommitter, sink: RowSink, row: SinkRow, order?: number): void {
    if (this.#sealed) throw new Error("a sealed commit unit takes no rows");
    if ((typeof row === "string") === (sink.statement === true)) throw new Error(`sink ${sink.name} takes ${sink.statement ? "parameters" : "JSON text"}`);
    let list = this.rows.get(sink);
    if (!list) this.rows.set(sink, (list = []));
    list.push(row);
    if (order !== undefined) {
      if (order < this.lo) this.lo = order;
      if (order > this.hi) this.hi = order;
    }
    if (!this.#committer) {
      this.#committer = committer;
      committer.place(this);
    } else if (this.#committer !== committer) throw new Error("one commit unit serves one database");
  }

  /** Called synchronously in commit order once the unit committed / for a unit whose tick failed. */
  onCommit(hook: Hook): void {
    this.#commitHooks.push(hook);
  }

  onFail(hook: Hook): void {
    this.#failHooks.push(hook);
  }

  /** No more rows: the unit may commit. Resolves once it committed (at once for a unit without rows). */
  seal(): Promise<void> {
    if (!this.#sealed) {
      this.#sealed = true;
      if (this.#committer) this.#committer.kick();
      else this.settle(null);
    }
    return this.committed;
  }

  /** @internal the committer's verdict. */
  settle(err: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#sealed = true;
    if (err == null) {
      for (const h of this.#commitHooks) h();
      this.#resolve();
    } else {
      for (const h of this.#failHooks) h(err);
      this.#reject(err);
    }
  }
}

export interface GroupCommitStats {
  ticks: number;
  units: number;
  largestTick: number;
}

const MAX_UNITS_PER_TICK = 4_000;

export class GroupCommitter {
  #queue: CommitUnit[] = [];
  #ticking: Promise<void> | null = null;
  #scheduled = false;
  readonly stats: GroupCommitStats = { ticks: 0, units: 0, largestTick: 0 };

  constructor(private readonly db: Database) {}

  /** @internal queues a unit (CommitUnit.add does it on the unit's first row). */
  place(unit: CommitUnit): void {
    this.#queue.push(unit);
    this.kick();
  }

  /** Starts a tick soon unless one runs (the running one starts the next when it returns). */
  kick(): void {
    if (this.#ticking || this.#scheduled) return;
    // A microtask lets the units of the current synchronous burst join the tick.
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#tick();
    });
  }

  /** Resolves when nothing is queued or committing (units still open are waited for). */
  async drain(): Promise<void> {
    while (this.#ticking || this.#queue.length > 0 || this.#scheduled) {
      if (this.#ticking) await this.#ticking.catch(() => {});
      else await new Promise((r) => setImmediate(r));
    }
  }

  /**
   * Resolves once every unit sealed before this call has settled (committed or failed), the running tick's too.
   * Units still open (calls in progress) are not waited for, unless a sealed one queues behind them.
   */
  async sealedSettled(): Promise<void> {
    const pending: Promise<unknown>[] = this.#queue.filter((u) => u.sealed).map((u) => u.committed.catch(() => {}));
    if (this.#ticking) pending.push(this.#ticking.catch(() => {}));
    await Promise.all(pending);
  }

  /** How many queued units the next tick may take: sealed, in order, none reaching past a unit left queued. */
  #takeable(): number {
    const q = this.#queue;
    let n = 0;
    while (n < q.length && n < MAX_UNITS_PER_TICK && q[n].sealed) n++;
    if (n === 0) return 0;
    let restLo = Number.POSITIVE_INFINITY;
    for (let i = n; i < q.length; i++) if (q[i].lo < restLo) restLo = q[i].lo;
    if (restLo === Number.POSITIVE_INFINITY) return n;
    const prefixHi: number[] = [];
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) prefixHi.push((hi = Math.max(hi, q[i].hi)));
    while (n > 0 && prefixHi[n - 1] > restLo) {
      n--;
      if (q[n].lo < restLo) restLo = q[n].lo;
    }
    return n;
  }

  #tick(): void {
    if (this.#ticking) return;
    const n = this.#takeable();
    if (n === 0) return;
    const batch = this.#queue.splice(0, n);
    this.#ticking = this.#write(batch).finally(() => {
      this.#ticking = null;
      if (this.#queue.length > 0) this.#tick();
    });
  }

  async #write(batch: CommitUnit[]): Promise<void> {
    const bySink = new Map<RowSink, SinkRow[]>();
    for (const u of batch) {
      for (const [sink, rows] of u.rows) {
        let all = bySink.get(sink);
        if (!all) bySink.set(sink, (all = []));
        for (const r of rows) all.push(r);
      }
    }
    const ordered = [...bySink].sort(([a], [b]) => a.rank - b.rank);
    try {
      await this.db.batch(tickStatements(ordered));
    } catch (err) {
      // Everything queued may build on what failed: all of it fails, hooks first (synchronously).
      const queued = this.#queue.splice(0);
      for (const u of batch) u.settle(err);
      for (const u of queued) u.settle(err);
      return;
    }
    this.stats.ticks++;
    this.stats.units += batch.length;
    this.stats.largestTick = Math.max(this.stats.largestTick, batch.length);
    for (const u of batch) u.settle(null);
  }
}

/**
 * A tick's statements, in sink order. Consecutive set-based sinks that write tables of their own go as ONE statement,
 * every sink but the last a data-modifying CTE (`WITH s0 AS (INSERT ...), s1 AS (UPDATE ...) INSERT ...`): one parse,
 * bind and execute instead of one per sink, and on Postgres one message instead of a transaction's three round trips
 * when the whole tick folds. It is atomic, and constraints (execution_reports → journal_entries) are checked at the
 * end of the statement, after every sub-statement. Sub-statements share one snapshot and none sees another's rows:
 * so a sink reads only its parameter and its own target (ON CONFLICT, UPDATE ... FROM). A sink on a table the run
 * already writes (one row touched twice in a statement is undefined) starts the next statement, which sees the rows
 * of the previous one; a statement sink's rows are statements of their own.
 */
export function tickStatements(ordered: readonly (readonly [RowSink, SinkRow[]])[]): Statement[] {
  const out: Statement[] = [];
  let run: RowSink[] = [];
  let params: string[] = [];
  const tables = new Set<string>();
  const flush = () => {
    if (run.length === 1) out.push({ text: run[0].sql, params });
    else if (run.length > 1) out.push({ text: foldedText(run), params, parts: run.map((s) => s.sql) });
    run = [];
    params = [];
    tables.clear();
  };
  for (const [sink, rows] of ordered) {
    if (sink.statement) {
      flush();
      for (const p of rows) out.push({ text: sink.sql, params: p as unknown[] });
      continue;
    }
    const written = writtenTables(sink.sql);
    if (written.some((t) => t === ANY_TABLE || tables.has(t)) || tables.has(ANY_TABLE)) flush();
    run.push(sink);
    params.push(`[${rows.join(",")}]`);
    for (const t of written) tables.add(t);
  }
  flush();
  return out;
}

const folded = new Map<string, string>();
/** The one statement of these sinks (memoised: a handful of sink sets recur, and Postgres prepares each text once). */
function foldedText(sinks: readonly RowSink[]): string {
  const key = sinks.map((s) => s.rank).join(",");
  let text = folded.get(key);
  if (!text) {
    const own = (s: RowSink, i: number) => s.sql.replace(/\$1\b/g, () => `$${i + 1}`);
    const ctes = sinks.slice(0, -1).map((s, i) => `s${i} AS (${own(s, i)})`);
    text = `WITH ${ctes.join(",\n")}\n${own(sinks[sinks.length - 1], sinks.length - 1)}`;
    folded.set(key, text);
  }
  return text;
}

/** The one committer of a database handle. */
export const groupCommitterOf = perDatabase((db) => new GroupCommitter(db));

/** `unit` if it still takes rows; null for none or a sealed one (its call already answered: the writer commits alone). */
export function openUnit(unit: CommitUnit | null | undefined): CommitUnit | null {
  return unit && !unit.sealed ? unit : null;
}
