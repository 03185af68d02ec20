/**
 * The service process: opens the database (PGlite in DATA_DIR, or Postgres), applies migrations, serves HTTP.
 * `startService` is what `npm start` runs and what tests start in-process.
 */
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import pino from "pino";
import { openDatabase } from "../relayer/db/client";
import { migrate } from "../relayer/db/migrate";
import { systemClock, type Clock } from "../relayer/clock";
import { createApp, API_BASE_PATH } from "./app";
import type { Config } from "./config";
import type { ServiceContext } from "./context";

export interface RunningService {
  ctx: ServiceContext;
  /** Base URL of the agent API, e.g. http://127.0.0.1:8080/api/agent/v1. */
  baseUrl: string;
  mcpUrl: string;
  port: number;
  close(): Promise<void>;
}

export async function startService(config: Config, opts: { clock?: Clock } = {}): Promise<RunningService> {
  const log = pino({ level: config.LOG_LEVEL, base: { svc: "api" } });
  const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  const ctx: ServiceContext = { config, db, clock: opts.clock ?? systemClock, log };
  const app = createApp(ctx);
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: config.HOST, port: config.PORT }, () => resolve(s));
    s.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const origin = config.PUBLIC_URL ?? `http://${config.HOST}:${port}`;
  let closed = false;
  return {
    ctx,
    baseUrl: `${origin}${API_BASE_PATH}`,
    mcpUrl: `${origin}/mcp`,
    port,
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((r) => server.close(() => r()));
      await db.close();
    },
  };
}
