/**
 * The one data layer: drizzle-orm over embedded PGlite (default) or Postgres (postgres.js) when a URL is given.
 *
 * `drizzle` is for typed queries; `query`/`exec`/`transaction` send plain SQL, which hot paths (the journal's
 * set-based group commit) use. Both drivers answer the same SQL; results are always arrays of rows.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { lockDirectory } from "./lock";

export type Drizzle = PgDatabase<PgQueryResultHKT, Record<string, never>>;

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
  readonly drizzle: Drizzle;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /** Calls `onMessage` for each NOTIFY on `channel`. Resolves to an unsubscribe function. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Postgres URL; when absent, PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; `undefined` with no databaseUrl means an in-memory PGlite (tests). */
  dataDir?: string;
  /** Postgres schema to use (created if missing); lets tests and stacks share one server. */
  schema?: string;
}

/** Redacts the password of a connection URL for printing. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}

export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.schema) : openPglite(opts.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  let release = () => {};
  let dir: string | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    release = lockDirectory(dataDir);
    dir = join(dataDir, "pglite");
  }
  let pg: InstanceType<typeof PGlite>;
  try {
    pg = await PGlite.create(dir, { extensions: { pg_trgm } });
  } catch (err) {
    release();
    throw err;
  }
  const runner = (q: Pick<InstanceType<typeof PGlite>, "query" | "exec">): SqlRunner => ({
    async query<T>(text: string, params?: unknown[]) {
      return (await q.query<T>(text, params)).rows;
    },
    async exec(text: string) {
      await q.exec(text);
    },
  });
  return {
    kind: "pglite",
    location: dir ?? "memory",
    drizzle: drizzle(pg) as unknown as Drizzle,
    ...runner(pg),
    transaction: (fn) => pg.transaction((tx) => fn(runner(tx))),
    async listen(channel, onMessage) {
      const unsub = await pg.listen(channel, onMessage);
      return async () => unsub();
    },
    async close() {
      try {
        await pg.close();
      } finally {
        release();
      }
    },
  };
}

async function openPostgres(url: string, schema?: string): Promise<Database> {
  const postgres = (await import("postgres")).default;
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const options = {
    max: 10,
    onnotice: () => {},
    ...(schema ? { connection: { search_path: `${schema},public` } } : {}),
  };
  if (schema) {
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, "")}"`);
    await admin.end();
  }
  // Two clients: drizzle changes the serializers of the client it owns (see docs/toolchain.md).
  const raw = postgres(url, options);
  const forDrizzle = postgres(url, { ...options, max: 4 });
  type Sql = typeof raw;
  const runner = (q: Pick<Sql, "unsafe">): SqlRunner => ({
    async query<T>(text: string, params?: unknown[]) {
      return (await q.unsafe(text, (params ?? []) as never[])) as unknown as T[];
    },
    async exec(text: string) {
      await q.unsafe(text).simple();
    },
  });
  return {
    kind: "postgres",
    location: redactUrl(url) + (schema ? ` (schema ${schema})` : ""),
    drizzle: drizzle(forDrizzle) as unknown as Drizzle,
    ...runner(raw),
    transaction: (fn) => raw.begin((tx) => fn(runner(tx as unknown as Sql))) as Promise<never>,
    async listen(channel, onMessage) {
      const { unlisten } = await raw.listen(channel, onMessage);
      return unlisten;
    },
    async close() {
      await Promise.all([raw.end({ timeout: 5 }), forDrizzle.end({ timeout: 5 })]);
    },
  };
}
