/** Types of pglite-pristine.cjs (plain CommonJS, loaded by the PGlite worker thread too). */
import type { PGlite } from "@electric-sql/pglite";

interface PristineSource {
  new (): { waitReady: Promise<void>; dumpDataDir(compression: "none"): Promise<Blob>; close(): Promise<void> };
}
/** Whether `dir` holds no database yet; `undefined` is an in-memory database, always new. */
export function isNewDatabase(dir: string | undefined): boolean;
export function createPglite<Db, Options extends object>(
  PGlite: PristineSource,
  entry: string,
  create: (dir: string | undefined, options: Options & { loadDataDir?: Blob }) => Promise<Db>,
  dir: string | undefined,
  options: Options,
  cacheDir?: string,
): Promise<Db>;
/** The service's PGlite (with pg_trgm) at `dir`, undefined for in memory. */
export function createServicePglite(dir: string | undefined): Promise<PGlite>;
