/**
 * The one data layer: embedded PGlite (default) or Postgres (postgres.js) when a URL is given.
 *
 * `query`/`exec`/`transaction` send plain SQL (hot paths such as the journal's set-based group commit are single
 * statements). Both drivers answer the same SQL; results are always arrays of rows.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { lockDirectory } from "./lock";
import { PgliteThread } from "./pglite-thread";
import { writtenTables } from "./written-tables";

/** A connection-like handle: the database itself, or one transaction of it. */
export interface SqlRunner {
  /** Runs one parameterised statement ($1, $2, ...) and returns its rows. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of one or more statements with no parameters (simple protocol). */
  exec(text: string): Promise<void>;
}

export interface Database extends SqlRunner {
  readonly kind: "pglite" | "postgres";
  /** Where the data lives, for people: a directory or a redacted URL. */
  readonly location: string;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Runs independent statements in one transaction, in order, and returns each one's rows: a single message to the
   * PGlite thread, pipelined on Postgres. A `transaction` of N statements holds PGlite for N + 2 round trips to the
   * event loop, every other statement queued meanwhile; a batch holds it for its own work only (the group commit).
   * A batch of one statement runs without BEGIN and COMMIT: a statement alone is atomic (a folded tick, group-commit.ts).
   */
  batch(statements: readonly Statement[]): Promise<unknown[][]>;
  /** Calls `onMessage` for each NOTIFY on `channel`. Resolves to an unsubscribe function. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Calls `listener` with the tables (lower case; "*" for DDL) each statement sent through this handle may have
   * written: once the statement finished, or for statements of `transaction`, once it committed. In-process caches
   * use it to drop stale entries (written-tables.ts); `texts` are the statements that wrote them, so a cache that
   * applies its own writes itself can tell them from others' (creation-state.ts). Returns the unsubscribe function.
   */
  onWrite(listener: WriteListener): () => void;
  close(): Promise<void>;
}

export type WriteListener = (tables: readonly string[], texts: readonly string[]) => void;

/** One parameterised statement of a `batch`. */
export interface Statement {
  text: string;
  params?: unknown[];
  /**
   * The statements this one is made of, reported to write listeners in its place: a folded commit tick
   * (group-commit.ts) is its sinks' own texts, which a cache tells from others' writes (creation-state.ts).
   */
  parts?: readonly string[];
}

/** The texts a batch reports to write listeners. */
const reportedTexts = (statements: readonly Statement[]): string[] => statements.flatMap((s) => s.parts ?? [s.text]);

export interface OpenDatabaseOptions {
  /** Postgres URL; when absent, PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; `undefined` with no databaseUrl means an in-memory PGlite (tests). */
  dataDir?: string;
  /** Postgres schema to use (created if missing); lets tests and stacks share one server. */
  schema?: string;
  /** Where PGlite runs: on a worker thread (default; pglite-thread.ts) or on the caller's thread. */
  pgliteThread?: "worker" | "main";
}

/** Redacts the password of a connection URL for printing. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}

/** The listeners of one Database and the notification of writes (after each statement, or after commit). */
class WriteNotifier {
  private readonly listeners = new Set<WriteListener>();

  subscribe(listener: WriteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Notifies the tables `sql` wrote (call once the statement finished, whether it succeeded or not). */
  statement(sql: string): void {
    if (this.listeners.size === 0) return;
    const tables = writtenTables(sql);
    if (tables.length > 0) this.emit(tables, [sql]);
  }

  emit(tables: readonly string[], texts: readonly string[]): void {
    for (const l of this.listeners) {
      try {
        l(tables, texts);
      } catch {
        // a listener's fault never fails the statement that was already run
      }
    }
  }

  /** Runs `fn` with a collector of the transaction's writes, and notifies them only once it committed. */
  async transaction<T>(run: (collect: (sql: string) => void) => Promise<T>): Promise<T> {
    const written = new Set<string>();
    const texts: string[] = [];
    const collect = (sql: string) => {
      if (this.listeners.size === 0) return;
      const tables = writtenTables(sql);
      if (tables.length > 0) texts.push(sql);
      for (const t of tables) written.add(t);
    };
    const out = await run(collect);
    if (written.size > 0) this.emit([...written], texts);
    return out;
  }
}

export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.schema) : openPglite(opts.dataDir, opts.pgliteThread ?? "worker");
}

async function openPglite(dataDir: string | undefined, thread: "worker" | "main"): Promise<Database> {
  let release = () => {};
  let dir: string | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    release = lockDirectory(dataDir);
    dir = join(dataDir, "pglite");
  }
  let engine: PgliteEngine;
  try {
    engine = thread === "worker" ? await workerEngine(dir) : await inThreadEngine(dir);
  } catch (err) {
    release();
    throw err;
  }
  const writes = new WriteNotifier();
  const runner = (tx: unknown, wrote: (sql: string) => void): SqlRunner => ({
    async query<T>(text: string, params?: unknown[]) {
      try {
        return (await engine.query(tx, text, params)) as T[];
      } finally {
        wrote(text);
      }
    },
    async exec(text: string) {
      try {
        await engine.exec(tx, text);
      } finally {
        wrote(text);
      }
    },
  });
  return {
    kind: "pglite",
    location: dir ?? "memory",
    ...runner(null, (sql) => writes.statement(sql)),
    transaction: (fn) => writes.transaction((collect) => engine.transaction((tx) => fn(runner(tx, collect)))),
    batch: (statements) =>
      writes.transaction(async (collect) => {
        try {
          return await engine.batch(statements);
        } finally {
          for (const t of reportedTexts(statements)) collect(t);
        }
      }),
    onWrite: (listener) => writes.subscribe(listener),
    listen: (channel, onMessage) => engine.listen(channel, onMessage),
    async close() {
      try {
        await engine.close();
      } finally {
        release();
      }
    },
  };
}

/** One PGlite instance, on this thread or on a worker; `tx` null is outside any transaction. */
interface PgliteEngine {
  query(tx: unknown, text: string, params?: unknown[]): Promise<unknown[]>;
  exec(tx: unknown, text: string): Promise<void>;
  transaction<T>(fn: (tx: unknown) => Promise<T>): Promise<T>;
  batch(statements: readonly Statement[]): Promise<unknown[][]>;
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

async function workerEngine(dir: string | undefined): Promise<PgliteEngine> {
  const thread = await PgliteThread.open(dir);
  return {
    query: (tx, sql, params) => thread.call("query", { tx, sql, params }),
    exec: (tx, sql) => thread.call("exec", { tx, sql }),
    async transaction(fn) {
      const tx = await thread.call<number>("begin");
      let out: Awaited<ReturnType<typeof fn>>;
      try {
        out = await fn(tx);
      } catch (err) {
        await thread.call("end", { tx, commit: false }).catch(() => {});
        throw err;
      }
      await thread.call("end", { tx, commit: true });
      return out;
    },
    batch: (statements) => thread.call("batch", { statements }),
    listen: (channel, onMessage) => thread.listen(channel, onMessage),
    close: () => thread.close(),
  };
}

async function inThreadEngine(dir: string | undefined): Promise<PgliteEngine> {
  const { createServicePglite } = await import("./pglite-pristine.cjs");
  const pg = await createServicePglite(dir);
  type Runner = Pick<typeof pg, "query" | "exec">;
  const on = (tx: unknown): Runner => (tx as Runner | null) ?? pg;
  return {
    query: async (tx, sql, params) => (await on(tx).query(sql, params)).rows,
    exec: async (tx, sql) => {
      await on(tx).exec(sql);
    },
    transaction: (fn) => pg.transaction((tx) => fn(tx)),
    batch: async (statements) =>
      statements.length === 1
        ? [(await pg.query(statements[0].text, statements[0].params)).rows]
        : pg.transaction(async (tx) => {
            const out: unknown[][] = [];
            for (const s of statements) out.push((await tx.query(s.text, s.params)).rows);
            return out;
          }),
    async listen(channel, onMessage) {
      const unsub = await pg.listen(channel, onMessage);
      return async () => unsub();
    },
    close: () => pg.close(),
  };
}

/**
 * Named prepared statements for the first PREPARED_TEXTS distinct parameterised texts: an unprepared parameterised
 * statement costs postgres.js two round trips (describe, then execute), a prepared one a single round trip after its
 * first use. Bounded because each connection keeps every statement it prepared; later new texts run unprepared.
 */
const PREPARED_TEXTS = 2_000;
const preparedTexts = new Set<string>();
function preparable(text: string): boolean {
  if (preparedTexts.has(text)) return true;
  if (preparedTexts.size >= PREPARED_TEXTS) return false;
  preparedTexts.add(text);
  return true;
}

async function openPostgres(url: string, schema?: string): Promise<Database> {
  const postgres = (await import("postgres")).default;
  const options = {
    max: 10,
    onnotice: () => {},
    // While the server restarts, fail fast instead of queueing: postgres.js waits up to 20 s (its default backoff)
    // before reconnecting, and every query queued on that connection waits with it. With a short backoff a query
    // meets the refused connection at once, and the API answers 503 + Retry-After (docs/faults.md); connect_timeout
    // bounds a black-holed network the same way.
    backoff: () => 0.05,
    connect_timeout: 5,
    ...(schema ? { connection: { search_path: `${schema},public` } } : {}),
  };
  if (schema) {
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, "")}"`);
    await admin.end();
  }
  const raw = postgres(url, options);
  type Sql = typeof raw;
  const writes = new WriteNotifier();
  const runner = (q: Pick<Sql, "unsafe">, wrote: (sql: string) => void): SqlRunner => ({
    async query<T>(text: string, params?: unknown[]) {
      try {
        return (await q.unsafe(text, (params ?? []) as never[], { prepare: preparable(text) })) as unknown as T[];
      } finally {
        wrote(text);
      }
    },
    async exec(text: string) {
      try {
        await q.unsafe(text).simple();
      } finally {
        wrote(text);
      }
    },
  });
  return {
    kind: "postgres",
    location: redactUrl(url) + (schema ? ` (schema ${schema})` : ""),
    ...runner(raw, (sql) => writes.statement(sql)),
    transaction: (fn) => writes.transaction((collect) => raw.begin((tx) => fn(runner(tx as unknown as Sql, collect))) as Promise<never>),
    // Returning the statements' promises unawaited lets postgres.js pipeline them on the transaction's connection.
    batch: (statements) =>
      writes.transaction(async (collect) => {
        const run = (q: Pick<Sql, "unsafe">, s: Statement) => q.unsafe(s.text, (s.params ?? []) as never[], { prepare: preparable(s.text) });
        try {
          if (statements.length === 1) return [(await run(raw, statements[0])) as unknown as unknown[]];
          return (await raw.begin((tx) => statements.map((s) => run(tx as unknown as Sql, s)))) as unknown as unknown[][];
        } finally {
          for (const t of reportedTexts(statements)) collect(t);
        }
      }),
    onWrite: (listener) => writes.subscribe(listener),
    async listen(channel, onMessage) {
      const { unlisten } = await raw.listen(channel, onMessage);
      return unlisten;
    },
    async close() {
      await raw.end({ timeout: 5 });
    },
  };
}
