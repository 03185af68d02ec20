/**
 * The service configuration: every environment variable, read once at start-up into a typed object.
 * A bad value stops the start with one line naming the variable (see `ConfigError`).
 * The README's configuration table documents the same variables; keep the two in step.
 */
import { resolve } from "node:path";
import { z } from "zod";
import { DEPLOYMENTS_DIR, deploymentFile } from "../decoder/deployment";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY, DEV_TREASURY_ADDRESS } from "../relayer/dev-accounts";
import { DEFAULT_SNAPSHOT_EVERY } from "../relayer/exchange/snapshot-every";
import { isLocalChain } from "../relayer/local-chain";

const port = z.coerce.number().int().min(1).max(65535);
const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");
const privateKey = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x followed by 64 hex digits")
  .transform((v) => v as `0x${string}`);
const url = z.string().url();
/** An ISO 8601 instant with its zone (e.g. 2026-09-01T00:00:00Z), read as epoch ms. */
const isoInstant = (fallback: string) =>
  z.iso
    .datetime({ offset: true })
    .default(fallback)
    .transform((v) => Date.parse(v));

/** Each key is the environment variable's name; each schema says its default. */
export const configSchema = z.object({
  /** 0 picks a free port (tests). */
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default("127.0.0.1"),
  PUBLIC_URL: url.optional(),
  CHAIN_ID: z.coerce.number().int().positive().default(8453),
  CHAIN_PORT: port.default(8545),
  RPC_URL: url.optional(),
  FORK_URL: url.optional(),
  /** With FORK_URL: the block to fork at (repeatable runs); default the forked chain's head at start. */
  FORK_BLOCK: z.coerce.number().int().nonnegative().optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  /** Where deployment artifacts (`<chainId>.json`) are read and written; default: deployments/ at the repository root. */
  DEPLOYMENTS_DIR: z.string().min(1).optional(),
  /** Where embedded PGlite runs: a worker thread (default; off the event loop) or the service's own thread. */
  PGLITE_THREAD: z.enum(["worker", "main"]).default("worker"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// URL")
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// URL")
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Default: Hardhat dev account #0 (relayer/dev-accounts.ts), a public key for local chains only. */
  DEPLOYER_PRIVATE_KEY: privateKey.default(DEV_DEPLOYER_KEY),
  OPERATOR_PRIVATE_KEY: privateKey.default(DEV_OPERATOR_KEY),
  /** Ledger account that receives trading fees. Default: Hardhat dev account #2. */
  TREASURY_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be an address (0x + 40 hex digits)")
    .transform((v) => v as `0x${string}`)
    .default(DEV_TREASURY_ADDRESS),
  BATCH_INTERVAL_MS: z.coerce.number().int().min(50).default(2000),
  BATCH_MAX_OPS: z.coerce.number().int().min(1).default(500),
  /**
   * Snapshots of the engine and of the batcher's ledger after every this many journal entries and at a clean stop, so
   * a start replays only what came after the newest (docs/journal.md "Snapshots"). 0 turns them off: no engine
   * snapshot stored or restored, no ledger snapshot stored.
   */
  SNAPSHOT_EVERY: z.coerce.number().int().min(0).default(DEFAULT_SNAPSHOT_EVERY),
  /**
   * The engine snapshots taken while running are taken by a replica engine on a worker thread, so orders do not wait
   * for them (docs/journal.md "Snapshots"). false takes every one on the service's thread.
   */
  SNAPSHOT_REPLICA: bool.default(true),
  PONDER_PORT: port.default(42069),
  /** How often the indexer polls the chain for new blocks (ms); passed to Ponder's pollingInterval. */
  PONDER_POLLING_MS: z.coerce.number().int().min(10).max(60_000).default(100),
  /** Log level of the Ponder process (its own levels). */
  PONDER_LOG_LEVEL: z.enum(["silent", "fatal", "error", "warn", "info", "debug", "trace"]).default("warn"),
  INDEXER_ENABLED: bool.default(true),
  /** Postgres schema the service uses (created if missing); lets tests and stacks share one server. */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lowercase SQL identifier")
    .optional(),
  /** Registration paths of POST /register (see docs/auth.md): the claimed-agent path is open by default. */
  REGISTRATION_CLAIM_OPEN: bool.default(true),
  REGISTRATION_EMAIL_OPEN: bool.default(false),
  REGISTRATION_WALLET_OPEN: bool.default(false),
  REGISTRATION_ANONYMOUS_OPEN: bool.default(false),
  /** Rate-limit ceilings per key and 60 s window (docs/api.md), ordinary and market-maker allocation tiers. */
  RATE_LIMIT_READ_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_WRITE_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_DATA_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_MM_READ_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
  RATE_LIMIT_MM_WRITE_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  RATE_LIMIT_MM_DATA_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Per client IP and 60 s window: every request, registration, key recovery. */
  RATE_LIMIT_IP_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  RATE_LIMIT_REGISTER_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_RECOVERY_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** Take the client IP from the first X-Forwarded-For entry (only behind a proxy you run). */
  TRUST_PROXY: bool.default(false),
  /** Browser origins besides this service's own that may call /mcp (comma-separated, e.g. an MCP inspector's). */
  MCP_ALLOWED_ORIGINS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s]+$/, "must be origins like http://localhost:6274, comma-separated")))
    .default([]),
  /** Sender of outgoing mail (claim links, email verification). */
  MAIL_FROM: z.string().min(3).default("agents@localhost"),
  /** Realtime (docs/realtime.md): heartbeat interval of SSE and WebSocket streams; time a WebSocket has to authenticate. */
  REALTIME_HEARTBEAT_MS: z.coerce.number().int().min(50).default(15_000),
  REALTIME_WS_AUTH_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  REALTIME_MAX_STREAMS_PER_AGENT: z.coerce.number().int().min(1).default(20),
  /** Webhooks (docs/webhooks.md): allow private/loopback targets (local development only); delivery worker poll. */
  WEBHOOKS_ALLOW_PRIVATE: bool.default(false),
  WEBHOOKS_POLL_MS: z.coerce.number().int().min(10).default(1000),
  /** Committed venue (docs/trading.md): PM (base units, 6 decimals) granted once to each new agent account. */
  PM_STARTING_GRANT: z
    .string()
    .regex(/^\d{1,30}$/, "must be an integer number of PM base units")
    .default("1000000000")
    .transform((v) => BigInt(v)),
  /** Fill allowance (spec "Trade allowance"): free executed wallet-sides per fixed seven-day period. */
  FILL_ALLOWANCE_ENABLED: bool.default(true),
  FILL_ALLOWANCE_FREE_PER_PERIOD: z.coerce.number().int().min(0).default(1000),
  /**
   * Leaderboard (docs/leaderboard.md): how old a published generation may be before a read computes the next one
   * (0: every read computes one), and the championship window of the `season` periods (UTC instants, end exclusive).
   */
  LEADERBOARD_REFRESH_MS: z.coerce.number().int().min(0).default(30_000),
  LEADERBOARD_SEASON_START: isoInstant("2026-09-01T00:00:00Z"),
  LEADERBOARD_SEASON_END: isoInstant("2027-01-01T00:00:00Z"),
  /** Participation release (docs/participation-release.md): confirmations a claim's payment needs to count as paid. */
  PARTICIPATION_CONFIRMATIONS: z.coerce.number().int().min(1).max(256).default(1),
  /**
   * Who sends a participation claim's transaction: `self_claim` (a wallet of the agent's choosing), `protocol_push`
   * (the service, with the operator key, paying the gas), or `auto`: the service when the recipient holds no gas.
   */
  PARTICIPATION_DELIVERY: z.enum(["auto", "self_claim", "protocol_push"]).default("auto"),
  /** Create the demo PM markets (api/domain/markets/seed/demo-markets.ts) at start, by the demo creator agent through the negotiate flow. */
  SEED_DEMO_MARKETS: bool.default(true),
  /** In-process read caches (docs/api-performance.md): how stale a cached read may be across instances; 0 = off. */
  DISCOVERY_CACHE_TTL_MS: z.coerce.number().int().min(0).default(1000),
  PRINCIPAL_CACHE_TTL_MS: z.coerce.number().int().min(0).default(1000),
  /** The operator credential of /admin/v1 (docs/admin.md); unset: generated into DATA_DIR/admin-token on first start. */
  ADMIN_TOKEN: z
    .string()
    .min(24, "must be at least 24 characters")
    .refine((v) => !v.startsWith("svc_"), "must not be an agent API key (svc_…)")
    .optional(),
  /** Set by `npm start` for its service child: issue and print the demo agents' keys (docs/auth.md, docs/demo-agents.md). */
  DEMO_AGENTS: bool.default(false),
  /** Anonymous registration (docs/auth.md): the Turnstile secret; set, tokens are checked with siteverify. */
  TURNSTILE_SECRET_KEY: z.string().min(1).optional(),
  /** The public Turnstile site key that GET /mcp-discovery names for the widget (null when unset). */
  TURNSTILE_SITE_KEY: z.string().min(1).optional(),
  /** Where tokens are verified (Cloudflare's siteverify; a test points it at a local stand-in). */
  TURNSTILE_VERIFY_URL: url.default("https://challenges.cloudflare.com/turnstile/v0/siteverify"),
  /** Region rule of POST /pm/buy (docs/security.md): the header the operator's proxy sets to the caller's ISO country. */
  REGION_COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, "must be an HTTP header name")
    .transform((v) => v.toLowerCase())
    .optional(),
  /** Countries (ISO 3166-1 alpha-2, comma-separated) refused with 403 SERVICE_UNAVAILABLE_IN_REGION on POST /pm/buy. */
  REGION_BLOCKED_COUNTRIES: z
    .string()
    .regex(/^([A-Za-z]{2}(,[A-Za-z]{2})*)?$/, "must be comma-separated two-letter country codes")
    .default("")
    .transform((v) => (v ? v.toUpperCase().split(",") : [])),
  /** Several instances on one Postgres (docs/scale-out.md): the advisory-lock holder owns the exchange, the others forward to it. */
  LEADER_ELECTION: bool.default(false),
  /** How often a follower tries the lock and a leader checks it still holds it (ms); bounds the take-over time. */
  LEADER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  /** The URL other instances forward to (default: http://HOST:PORT, a wildcard HOST as 127.0.0.1). */
  INSTANCE_URL: url.optional(),
  /** Set by `npm start` for its service child: stop when the parent process is gone. */
  STACK_CHILD: bool.default(false),
});

export type Config = z.infer<typeof configSchema> & {
  /** Absolute path of DATA_DIR. */
  dataDir: string;
  /** Absolute path of DEPLOYMENTS_DIR. */
  deploymentsDir: string;
  /** The deployment artifact of CHAIN_ID: `<deploymentsDir>/<CHAIN_ID>.json` (it may not exist yet). */
  deploymentFile: string;
  /** `postgres` when DATABASE_URL is set, else the embedded `pglite`. */
  storage: "postgres" | "pglite";
  /** The chain the stack talks to: RPC_URL, or the local node on CHAIN_PORT. */
  rpcUrl: string;
  /** Base URL of the service, e.g. http://127.0.0.1:8080. */
  publicUrl: string;
};

/** A configuration value that cannot be used; `message` is the one line printed at start. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`configuration: ${variable} ${detail}`);
  }
}

/**
 * Off a local chain (docs/dev-chain.md), the Hardhat dev keys are anyone's: refuse to start with one as the deployer
 * or operator key (set or defaulted), naming the variable, rather than sign live transactions with a public key.
 */
function refuseDevKeysOffLocalChain(c: z.infer<typeof configSchema>): void {
  if (isLocalChain(c)) return;
  const known = new Set([DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY].map((k) => k.toLowerCase()));
  for (const variable of ["DEPLOYER_PRIVATE_KEY", "OPERATOR_PRIVATE_KEY"] as const) {
    if (known.has(c[variable].toLowerCase())) {
      throw new ConfigError(
        variable,
        `is a Hardhat public dev key (the default when unset), and RPC_URL ${c.RPC_URL} is not a local chain: set ${variable} to a key of your own`,
      );
    }
  }
}

/** Parses the environment once. Throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") input[key] = value;
  }
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue.path[0] ?? "environment");
    throw new ConfigError(variable, `is invalid (${JSON.stringify(input[variable] ?? null)}): ${issue.message}`);
  }
  const c = parsed.data;
  refuseDevKeysOffLocalChain(c);
  const deploymentsDir = c.DEPLOYMENTS_DIR ? resolve(cwd, c.DEPLOYMENTS_DIR) : DEPLOYMENTS_DIR;
  return {
    ...c,
    dataDir: resolve(cwd, c.DATA_DIR),
    deploymentsDir,
    deploymentFile: deploymentFile(c.CHAIN_ID, deploymentsDir),
    storage: c.DATABASE_URL ? "postgres" : "pglite",
    rpcUrl: c.RPC_URL ?? `http://127.0.0.1:${c.CHAIN_PORT}`,
    publicUrl: (c.PUBLIC_URL ?? `http://${c.HOST}:${c.PORT}`).replace(/\/$/, ""),
  };
}
