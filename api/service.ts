/**
 * The service process: opens the database (PGlite in DATA_DIR, or Postgres), applies migrations, builds every service
 * (api/open-services.ts, the venue included), then the app over them, and serves HTTP.
 * `startService` is what `npm start` runs and what tests start in-process.
 */
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import pino from "pino";
import { openDatabase } from "../relayer/db/client";
import { loadKeccak256 } from "../decoder/merkle/keccak";
import { groupCommitterOf } from "../relayer/db/group-commit";
import { configurePrincipalCache } from "./domain/auth/api-keys";
import { configureCatalogCache } from "./domain/markets/catalog-cache";
import { migrateService } from "./platform/db/migrations";
import { systemClock, type Clock } from "../relayer/clock";
import { answerClientErrors } from "./transports/http-client-errors";
import { createApp } from "./app";
import { API_BASE_PATH } from "./platform/versioning/versions";
import type { Services } from "./services";
import type { JournalReplay } from "../relayer/exchange/journal-replay";
import { createServices, type OpenServices } from "./open-services";
import type { Delivery } from "./transports/delivery";
import type { Registry } from "./registry/registry";
import type { Config } from "./config";
import type { ServiceContext } from "./context";
import type { PublishedLedger } from "./domain/ledger/published-ledger";
import { attachWebSocket } from "./transports/realtime/ws";
import { startOnchainCatalogSync } from "./domain/onchain/catalog-sync";
import { openServiceClock } from "./domain/dev-chain/dev-clock";
import { createDemoMarkets, type ApiFetch } from "./domain/creation/demo-creator";
import type { InternalCall } from "./transports/middleware/caller";
import { randomUUID } from "node:crypto";
import { demoMarkets } from "./domain/markets/seed/demo-markets";

export interface RunningService {
  ctx: ServiceContext;
  services: Services;
  /** The realtime hub and the webhook worker (api/transports/delivery.ts). */
  delivery: Delivery;
  registry: Registry;
  /** Base URL of the agent API, e.g. http://127.0.0.1:8080/api/agent/v1. */
  baseUrl: string;
  mcpUrl: string;
  port: number;
  close(): Promise<void>;
}

export interface StartServiceOptions {
  clock?: Clock;
  /** The published ledger to serve proofs from; default: the CommittedLedger of deployments/<chainId>.json. */
  publishedLedger?: PublishedLedger;
  /** Key prefix of the Redis rate windows (tests use a unique one). */
  redisPrefix?: string;
  /** Publish journal batches to the deployed CommittedLedger (docs/journal.md). Off unless asked: the service process
   *  (api/main.ts) asks; tests and tools that start a service in-process never publish to a chain by accident. */
  publish?: boolean;
  /** Runs right before the server listens, after the exchange is open (a promoted follower frees the port). */
  beforeListen?: () => Promise<void>;
  /** A promoted follower's warm replay of the journal: the exchange replays only the entries after it. */
  replay?: JournalReplay;
}

export async function startService(config: Config, opts: StartServiceOptions = {}): Promise<RunningService> {
  const log = pino({ level: config.LOG_LEVEL, base: { svc: "api" } });
  const db = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    schema: config.DATABASE_SCHEMA,
    pgliteThread: config.PGLITE_THREAD,
  });
  try {
    await migrateService(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  configureCatalogCache(db, { ttlMs: config.DISCOVERY_CACHE_TTL_MS });
  // The WebAssembly keccak, so the hashes of the request path (a market's terms, its derived accounts) take it
  // instead of viem's JavaScript one: ~25 times faster on a market's terms (decoder/merkle/keccak.ts keccak256Of).
  // Not waited for: until it is loaded those hashes take viem's, with the same result.
  loadKeccak256().catch((err: unknown) => log.warn({ err }, "WebAssembly keccak not loaded; hashing with viem's"));
  configurePrincipalCache(db, { ttlMs: config.PRINCIPAL_CACHE_TTL_MS });
  let clock: Clock;
  try {
    // A movable clock on a local chain (docs/dev-chain.md): the operator's time advances move it.
    clock = await openServiceClock(config, db, opts.clock ?? systemClock, log);
  } catch (err) {
    await db.close();
    throw err;
  }
  const ctx: ServiceContext = { config, db, clock, log };
  let opened: OpenServices;
  try {
    opened = await createServices(ctx, {
      redisPrefix: opts.redisPrefix,
      publish: opts.publish === true,
      publishedLedger: opts.publishedLedger,
      replay: opts.replay,
    });
  } catch (err) {
    await db.close();
    throw err;
  }
  const { services, delivery } = opened;
  const { app, registry } = createApp(ctx, opened);
  if (config.SEED_DEMO_MARKETS) {
    try {
      // The demo creator agent creates the demo markets through the negotiate flow, as a client of this very app: an
      // internal caller (no socket), the operator's own, so not charged to the public rate windows.
      const internal: InternalCall = { surface: "rest", ip: "127.0.0.1", requestId: "", operator: true };
      const fetch: ApiFetch = async (path, init) =>
        app.request(`${API_BASE_PATH}${path}`, init, { internal: { ...internal, requestId: `demo-creator-${randomUUID()}` } });
      await createDemoMarkets({ db, clock, chainId: config.CHAIN_ID, venue: services.venue, fetch }, demoMarkets(clock.now()));
    } catch (err) {
      // The demo markets are a convenience, not the service: a chain that cannot be read now (the factories' fees)
      // must not keep the API down. The next start creates what is missing (createDemoMarkets is idempotent).
      log.warn({ err: err instanceof Error ? err.message : String(err) }, "demo markets not created at this start");
    }
  }
  // On-chain lane: catalog rows of LmsrMarkets kept in step with the Ponder projection (docs/indexer.md).
  const onchain = config.INDEXER_ENABLED ? startOnchainCatalogSync(ctx, services.onchain) : null;
  await opts.beforeListen?.();
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: config.HOST, port: config.PORT }, () => resolve(s));
    s.once("error", reject);
  });
  // WebSocket endpoint on the same server; webhook deliveries polled (docs/realtime.md, docs/webhooks.md).
  // Idle keep-alive sockets stay open longer than a client's pool keeps them (undici keeps them the server's hint minus
  // 1 s): with Node's 5 s default a loaded process's late timers let a client reuse a socket the server just closed
  // (ECONNRESET on a POST, seen in bench:create and the MCP test).
  (server as import("node:http").Server).keepAliveTimeout = 65_000;
  const sockets = attachWebSocket(server as import("node:http").Server, ctx, { windows: services.windows, hub: delivery.hub });
  delivery.webhooks.start();
  const port = (server.address() as AddressInfo).port;
  const origin = config.PUBLIC_URL ?? `http://${config.HOST}:${port}`;
  answerClientErrors(server as import("node:http").Server, () => origin);
  let closed = false;
  return {
    ctx,
    services,
    delivery,
    registry,
    baseUrl: `${origin}${API_BASE_PATH}`,
    mcpUrl: `${origin}/mcp`,
    port,
    async close() {
      if (closed) return;
      closed = true;
      onchain?.stop();
      await sockets.close();
      await new Promise<void>((r) => server.close(() => r()));
      await opened.close();
      // The records of the last reads join a tick after their answers left (call-record middleware): store them.
      await groupCommitterOf(db)?.drain();
      await db.close();
    },
  };
}
