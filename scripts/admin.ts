/**
 * Operator commands on the service database (same DATA_DIR / DATABASE_URL / DATABASE_SCHEMA resolution as the service):
 *   npm run admin -- agent create --name <name> [--tier read-only|propose|execute] [--json]
 *   npm run admin -- agent grant-research <agentId>    (revoke-research to take it back; docs/content.md)
 *   npm run admin -- mail [--limit <n>] [--json]
 * With PGlite (no DATABASE_URL) only one process may open DATA_DIR: stop `npm start` first.
 */
import { parseArgs } from "node:util";
import { loadConfig, ConfigError } from "../api/config";
import { openDatabase, type Database } from "../relayer/db/client";
import { DirectoryLockedError } from "../relayer/db/lock";
import { migrateService } from "../api/platform/db/migrations";
import { systemClock } from "../relayer/clock";
import { createLocalAgent, parseTier } from "../api/domain/auth/local-agents";
import { listOutbox } from "../api/platform/mail/mailer";
import { ApiError } from "../api/platform/errors/api-error";
import { setResearchProducer } from "../api/domain/content/store";

const USAGE = `usage:
  npm run admin -- agent create --name <name> [--tier read-only|propose|execute] [--json]
  npm run admin -- agent grant-research <agentId>
  npm run admin -- agent revoke-research <agentId>
  npm run admin -- mail [--limit <n>] [--json]`;

class UsageError extends Error {}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The data directory is held by a running service (PGlite): a clear message, no usage text. */
class DatabaseBusyError extends Error {}

function parseCommand(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: { name: { type: "string" }, tier: { type: "string" }, limit: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

async function open(): Promise<Database> {
  const config = loadConfig();
  try {
    const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, schema: config.DATABASE_SCHEMA });
    await migrateService(db);
    return db;
  } catch (err) {
    if (err instanceof DirectoryLockedError) {
      throw new DatabaseBusyError(
        `the service database in ${config.dataDir} is open in process ${err.pid} (PGlite allows one process at a time): stop \`npm start\` first, then run this command again (with DATABASE_URL, a Postgres database can be shared while the service runs)`,
      );
    }
    throw err;
  }
}

export async function runAdmin(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const { values, positionals } = parseCommand(argv);
  const [cmd, sub] = positionals;
  const json = values.json === true;
  if (values.help) {
    out(USAGE);
    return 0;
  }
  if (cmd === "agent" && sub === "create") {
    const name = values.name;
    if (!name) throw new UsageError("agent create needs --name <name>");
    const tier = parseTier(values.tier ?? "execute");
    const db = await open();
    try {
      const a = await createLocalAgent(db, systemClock, { name, tier });
      if (json) out(JSON.stringify(a));
      else {
        out(`agent ${a.name} (${a.agentId}) tier ${a.tier}`);
        out(`  wallet          ${a.walletAddress}`);
        out(`  wallet key      ${a.walletPrivateKey}   (shown once; needed for key recovery and wallet proofs)`);
        out(`  ledger account  ${a.ledgerAccount}`);
        out(`  key id          ${a.keyId}`);
        out(`  API key         ${a.apiKey}   (shown once)`);
      }
      return 0;
    } finally {
      await db.close();
    }
  }
  if (cmd === "agent" && (sub === "grant-research" || sub === "revoke-research")) {
    const agentId = positionals[2];
    if (!agentId) throw new UsageError(`agent ${sub} needs <agentId>`);
    if (!UUID.test(agentId)) throw new UsageError(`agentId must be a UUID (the id GET /me shows); got ${JSON.stringify(agentId)}`);
    const granted = sub === "grant-research";
    const db = await open();
    try {
      if (!(await setResearchProducer(db, agentId, granted))) throw new ApiError("AGENT_NOT_FOUND", `no agent ${agentId}`);
      out(granted ? `agent ${agentId} may publish research (POST /agents/me/research)` : `agent ${agentId} may no longer publish research`);
      return 0;
    } finally {
      await db.close();
    }
  }
  if (cmd === "mail") {
    const limit = Number(values.limit ?? "20");
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit must be a positive integer");
    const db = await open();
    try {
      const mails = await listOutbox(db, limit);
      if (json) for (const m of mails) out(JSON.stringify(m));
      else if (mails.length === 0) out("the outbox is empty");
      else
        for (const m of mails) {
          const state = m.sentAt ? `sent ${new Date(m.sentAt).toISOString()}` : m.error ? `error: ${m.error}` : "not sent (outbox only)";
          out(`#${m.id} ${new Date(m.createdAt).toISOString()} to ${m.to} [${state}]`);
          out(`Subject: ${m.subject}`);
          out(m.body);
          out("");
        }
      return 0;
    } finally {
      await db.close();
    }
  }
  throw new UsageError(cmd ? `unknown command: ${argv.join(" ")}` : "no command given");
}

if (require.main === module) {
  runAdmin(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      if (err instanceof UsageError) console.error(`${err.message}\n${USAGE}`);
      else if (err instanceof DatabaseBusyError) console.error(err.message);
      else if (err instanceof ConfigError) console.error(err.message);
      else if (err instanceof ApiError) console.error(`${err.code}: ${err.detail}`);
      else console.error(err);
      process.exit(err instanceof UsageError || err instanceof DatabaseBusyError || err instanceof ConfigError || err instanceof ApiError ? 2 : 1);
    },
  );
}
