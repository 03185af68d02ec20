/**
 * The admin CLI without a running service: the same commands on the service database, opened here. With PGlite only
 * one process may hold DATA_DIR, so this works only while `npm start` is stopped (the CLI uses HTTP while it runs).
 */
import type { Config } from "../../api/config";
import { openDatabase, type Database } from "../../relayer/db/client";
import { DirectoryLockedError } from "../../relayer/db/lock";
import { migrateService } from "../../api/platform/db/migrations";
import { systemClock } from "../../relayer/clock";
import { createLocalAgent, type LocalAgent } from "../../api/domain/auth/local-agents";
import type { AgentTier } from "../../api/domain/auth/scopes";
import { listOutbox, type OutboxEntry } from "../../api/platform/mail/mailer";
import { ApiError } from "../../api/platform/errors/api-error";
import { setResearchProducer } from "../../api/domain/content/store";
import { setIdentityVerified } from "../../api/domain/identity/links";
import type { AdminHttp } from "./http";

/** The data directory is held by a running service (PGlite): a clear message, no usage text. */
export class DatabaseBusyError extends Error {}

/** What each admin command needs, over HTTP or on the database. */
export interface AdminBackend {
  via: "http" | "database";
  createAgent(name: string, tier: AgentTier): Promise<LocalAgent>;
  setResearch(agentId: string, granted: boolean): Promise<void>;
  /** Verifies (or not) the identity whose member `wallet` is; answers its id. */
  setIdentityVerified(wallet: string, verified: boolean): Promise<string>;
  listMail(limit: number): Promise<OutboxEntry[]>;
}

async function open(config: Config): Promise<Database> {
  try {
    const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, schema: config.DATABASE_SCHEMA });
    await migrateService(db);
    return db;
  } catch (err) {
    if (err instanceof DirectoryLockedError) {
      throw new DatabaseBusyError(
        `the service database in ${config.dataDir} is open in process ${err.pid} (PGlite allows one process at a time), and no service answered the admin API at its address: run this command with the service's PUBLIC_URL or PORT (and ADMIN_TOKEN), or stop \`npm start\` first`,
      );
    }
    throw err;
  }
}

async function withDb<T>(config: Config, f: (db: Database) => Promise<T>): Promise<T> {
  const db = await open(config);
  try {
    return await f(db);
  } finally {
    await db.close();
  }
}

export function databaseBackend(config: Config): AdminBackend {
  return {
    via: "database",
    createAgent: (name, tier) => withDb(config, (db) => createLocalAgent(db, systemClock, { name, tier })),
    setResearch: (agentId, granted) =>
      withDb(config, async (db) => {
        if (!(await setResearchProducer(db, agentId, granted))) throw new ApiError("AGENT_NOT_FOUND", `no agent ${agentId}`);
      }),
    setIdentityVerified: (wallet, verified) =>
      withDb(config, async (db) => {
        const id = await setIdentityVerified(db, wallet, verified, systemClock.now());
        if (!id) throw new ApiError("NOT_FOUND", `the wallet ${wallet} belongs to no identity`);
        return id;
      }),
    listMail: (limit) => withDb(config, (db) => listOutbox(db, limit)),
  };
}

export function httpBackend(http: AdminHttp): AdminBackend {
  return {
    via: "http",
    createAgent: (name, tier) => http.call<LocalAgent>("POST", "/agents", { name, tier }),
    setResearch: async (agentId, granted) => {
      await http.call(granted ? "PUT" : "DELETE", `/agents/${agentId}/research`);
    },
    setIdentityVerified: async (wallet, verified) =>
      (await http.call<{ identityId: string }>(verified ? "PUT" : "DELETE", `/identities/${wallet}/verified`)).identityId,
    listMail: async (limit) => (await http.call<{ mails: OutboxEntry[] }>("GET", `/mail?limit=${limit}`)).mails,
  };
}
