/**
 * A whole service for tests: startService on a temp DATA_DIR (PGlite) or, with DATABASE_URL, on its own Postgres
 * schema (dropped at stop), with a manual clock unless the test gives one, and a small JSON client over real HTTP.
 * Tests start their service here rather than by hand, so every suite gets the same isolation and clean-up.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type Config } from "../../api/config";
import { startService, type RunningService, type StartServiceOptions } from "../../api/service";
import { manualClock, type Clock } from "../../relayer/clock";
import { dropServiceSchema } from "./db";

export type Json = Record<string, any>;
type ManualClock = ReturnType<typeof manualClock>;

export interface TestService<C extends Clock = ManualClock> {
  svc: RunningService;
  clock: C;
  dir: string;
  schema?: string;
  env: Record<string, string>;
}

/** `env` is configuration on top of the test defaults (PORT 0, a temp DATA_DIR, silent logs, the test database). */
export async function startTestService<C extends Clock = ManualClock>(
  env: Record<string, string> = {},
  opts: Omit<StartServiceOptions, "clock"> & { dir?: string; schema?: string; clock?: C } = {},
): Promise<TestService<C>> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), "pm-svc-"));
  const clock = opts.clock ?? (manualClock(1_800_000_000_000) as Clock as C);
  const schema = opts.schema ?? (process.env.DATABASE_URL ? `t_svc_${randomUUID().slice(0, 8)}` : undefined);
  const config = testConfig(dir, { DATABASE_URL: process.env.DATABASE_URL, ...(schema ? { DATABASE_SCHEMA: schema } : {}), ...env });
  const svc = await startService(config, { publish: false, ...opts, clock });
  return { svc, clock, dir, schema, env };
}

/**
 * The configuration of a test service in `dir`: PORT 0, DATA_DIR `dir`, silent logs, then `env`. On the default chain
 * a test never reads the developer's deployments/8453.json (left by `npm start`): it gets its own empty directory. A
 * test on a chain of its own deployed into the repository's directory and reads it there.
 */
export function testConfig(dir: string, env: Record<string, string | undefined> = {}): Config {
  return loadConfig({ PORT: "0", DATA_DIR: dir, LOG_LEVEL: "silent", ...(env.CHAIN_ID ? {} : { DEPLOYMENTS_DIR: join(dir, "deployments") }), ...env });
}

/** Stops the service; `keepData` leaves the data (directory, schema) for a restart on it. */
export async function stopTestService(t: TestService<Clock>, opts: { keepData?: boolean } = {}): Promise<void> {
  await t.svc.close();
  if (!opts.keepData) await dropServiceSchema(t.schema);
  if (!opts.keepData) rmSync(t.dir, { recursive: true, force: true });
}

/** Restarts on the same data and clock. */
export async function restartTestService<C extends Clock>(t: TestService<C>, opts: Omit<StartServiceOptions, "clock"> = {}): Promise<TestService<C>> {
  await stopTestService(t, { keepData: true });
  return startTestService(t.env, { ...opts, dir: t.dir, schema: t.schema, clock: t.clock });
}

export interface CallResult {
  status: number;
  headers: Headers;
  json: Json;
}

/** JSON calls against the agent API of `t` (writes get a fresh Idempotency-Key unless one is given or null). */
export function apiClient(t: { svc: RunningService }, key?: string) {
  return async (method: string, path: string, body?: unknown, opts: { idem?: string | null; key?: string } = {}): Promise<CallResult> => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    const k = opts.key ?? key;
    if (k) headers.authorization = `Bearer ${k}`;
    if (opts.idem !== null && method !== "GET") headers["idempotency-key"] = opts.idem ?? randomUUID();
    const res = await fetch(`${t.svc.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? (JSON.parse(text) as Json) : {} };
  };
}
