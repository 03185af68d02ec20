/**
 * Operator commands. While the service runs they go to its admin API over HTTP (/admin/v1 at PUBLIC_URL or HOST:PORT,
 * with ADMIN_TOKEN or DATA_DIR/admin-token; docs/admin.md); when nothing listens there the agent and mail commands
 * open the service database directly (same DATA_DIR / DATABASE_URL / DATABASE_SCHEMA resolution as the service):
 *   npm run admin -- agent create --name <name> [--tier read-only|propose|execute] [--json]
 *   npm run admin -- agent grant-research <agentId>    (revoke-research to take it back; docs/content.md)
 *   npm run admin -- identity verify <wallet>         (unverify to withdraw it; docs/identity.md)
 *   npm run admin -- mail [--limit <n>] [--json]
 *   npm run admin -- status [--json]                   (the running service: chain, clock, admin modules)
 *   npm run admin -- time [--json]                     (the service clock and its offset; local chains only)
 *   npm run admin -- time advance <duration> [--json]  (90s, 2h, 3d: moves service and chain; docs/dev-chain.md)
 *   npm run admin -- usdc fund <address> [<amount>]    (USDC base units, default 1,000 USDC; local chains only)
 *   npm run admin -- creator show|tier|grant-slot|revoke-slot|cohort-limit …   (market creators; docs/market-creation.md)
 */
import { parseArgs } from "node:util";
import { loadConfig, ConfigError, type Config } from "../api/config";
import { parseTier } from "../api/domain/auth/local-agents";
import { ApiError } from "../api/platform/errors/api-error";
import { type AdminBackend, DatabaseBusyError, databaseBackend, httpBackend } from "./admin/direct";
import { AdminProblem, AdminUnreachable, probeAdmin, type AdminHttp } from "./admin/http";
import { runTimeCommand, TimeRefused } from "./admin/time";
import { chainKind, isLocalChain } from "../relayer/local-chain";

const USAGE = `usage:
  npm run admin -- agent create --name <name> [--tier read-only|propose|execute] [--json]
  npm run admin -- agent grant-research <agentId>
  npm run admin -- agent revoke-research <agentId>
  npm run admin -- identity verify <wallet>
  npm run admin -- identity unverify <wallet>
  npm run admin -- mail [--limit <n>] [--json]
  npm run admin -- status [--json]
  npm run admin -- time [--json]
  npm run admin -- time advance <duration> [--json]     (e.g. 90s, 2h, 3d, 1h30m)
  npm run admin -- usdc fund <address> [<amount>] [--json]   (base units; default 1000000000 = 1,000 USDC)
  npm run admin -- creator show <agentId> [--json]
  npm run admin -- creator tier <agentId> <suspended|new|established|trusted|partner|rule>
  npm run admin -- creator grant-slot <agentId>
  npm run admin -- creator revoke-slot <agentId>
  npm run admin -- creator cohort-limit <n>`;

class UsageError extends Error {}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseCommand(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: "string" },
        tier: { type: "string" },
        limit: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** The running service over HTTP when one answers, else the database. */
async function backend(config: Config): Promise<AdminBackend> {
  const http = await probeAdmin(config);
  return http ? httpBackend(http) : databaseBackend(config);
}

/** Commands that only a running service can do. */
async function running(config: Config, what: string): Promise<AdminHttp> {
  const http = await probeAdmin(config);
  if (!http)
    throw new AdminUnreachable(
      `${what} needs the running service, and none answers at its address: start it (npm start), or set PUBLIC_URL / PORT to where it runs`,
    );
  return http;
}

export async function runAdmin(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const { values, positionals } = parseCommand(argv);
  const [cmd, sub] = positionals;
  const json = values.json === true;
  if (values.help) {
    out(USAGE);
    return 0;
  }
  const config = loadConfig();
  if (cmd === "agent" && sub === "create") {
    const name = values.name;
    if (!name) throw new UsageError("agent create needs --name <name>");
    const tier = parseTier(values.tier ?? "execute");
    const a = await (await backend(config)).createAgent(name, tier);
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
  }
  if (cmd === "agent" && (sub === "grant-research" || sub === "revoke-research")) {
    const agentId = positionals[2];
    if (!agentId) throw new UsageError(`agent ${sub} needs <agentId>`);
    if (!UUID.test(agentId)) throw new UsageError(`agentId must be a UUID (the id GET /me shows); got ${JSON.stringify(agentId)}`);
    const granted = sub === "grant-research";
    await (await backend(config)).setResearch(agentId, granted);
    out(granted ? `agent ${agentId} may publish research (POST /agents/me/research)` : `agent ${agentId} may no longer publish research`);
    return 0;
  }
  if (cmd === "identity" && (sub === "verify" || sub === "unverify")) {
    const wallet = positionals[2];
    if (!wallet || !/^0x[0-9a-fA-F]{40}$/.test(wallet)) throw new UsageError(`identity ${sub} needs <wallet>, an EVM address of a member`);
    const verified = sub === "verify";
    const identityId = await (await backend(config)).setIdentityVerified(wallet.toLowerCase(), verified);
    out(
      verified
        ? `identity ${identityId} is verified: one human vote per session; GET /me says identityVerified`
        : `identity ${identityId} is no longer verified`,
    );
    return 0;
  }
  if (cmd === "mail") {
    const limit = Number(values.limit ?? "20");
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit must be a positive integer");
    const mails = await (await backend(config)).listMail(limit);
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
  }
  if (cmd === "creator") {
    const http = await running(config, `creator ${sub ?? ""}`.trim());
    const arg = positionals[2];
    if (sub === "cohort-limit") {
      const limit = Number(arg);
      if (!Number.isInteger(limit) || limit < 0) throw new UsageError("creator cohort-limit needs an integer >= 0");
      const r = await http.call<{ limit: number; occupied: number }>("PUT", "/creators/cohort", { limit });
      out(json ? JSON.stringify(r) : `public creator cohort: limit ${r.limit}, occupied ${r.occupied}`);
      return 0;
    }
    if (!arg || !UUID.test(arg)) throw new UsageError(`creator ${sub ?? "<command>"} needs <agentId> (a UUID, the id GET /me shows)`);
    if (sub === "show") {
      const r = await http.call<{
        account: string;
        creatorTier: string;
        creation: { effectiveConcurrentLimit: number; activeMarkets: number; remaining: number };
        slotState: string;
      }>("GET", `/creators/${arg}`);
      out(
        json
          ? JSON.stringify(r)
          : `creator ${r.account}: tier ${r.creatorTier}, slot ${r.slotState}, live ${r.creation.activeMarkets}/${r.creation.effectiveConcurrentLimit} (remaining ${r.creation.remaining})`,
      );
      return 0;
    }
    if (sub === "tier") {
      const tier = positionals[3];
      if (!tier) throw new UsageError("creator tier needs <agentId> <tier|rule>");
      const r = await http.call<{ creator: string; tierOverride: string | null }>("PUT", `/creators/${arg}/tier`, { tier: tier === "rule" ? null : tier });
      out(`creator ${r.creator}: tier ${r.tierOverride ?? "from the rule over its history"}`);
      return 0;
    }
    if (sub === "grant-slot" || sub === "revoke-slot") {
      const r = await http.call<{ creator: string; slot: string }>(sub === "grant-slot" ? "PUT" : "DELETE", `/creators/${arg}/slot`);
      out(`creator ${r.creator}: slot ${r.slot}`);
      return 0;
    }
    throw new UsageError(`unknown creator command ${JSON.stringify(sub)}`);
  }
  if (cmd === "status") {
    const status = await (await running(config, "status")).call<{ chain: { chainId: number; kind: string }; now: number; modules: string[] }>("GET", "/status");
    if (json) out(JSON.stringify(status));
    else {
      out(`service clock  ${new Date(status.now).toISOString()}`);
      out(`chain          ${status.chain.chainId} (${status.chain.kind})`);
      out(`admin modules  ${status.modules.join(", ")}`);
    }
    return 0;
  }
  if (cmd === "time") {
    if (sub !== undefined && sub !== "advance") throw new UsageError(`unknown command: ${argv.join(" ")}`);
    if (sub === "advance" && !positionals[2]) throw new UsageError("time advance needs <duration>, e.g. 90s, 2h or 3d");
    return runTimeCommand(config, sub === "advance" ? positionals[2] : null, json, out, (what) => running(config, what));
  }
  if (cmd === "usdc") {
    const [address, amount] = positionals.slice(2);
    if (sub !== "fund" || !address) throw new UsageError("usdc fund needs <address> [<amount in USDC base units>]");
    if (!isLocalChain(config)) throw new TimeRefused(`usdc fund works only on a local chain: RPC_URL=${config.RPC_URL} is ${chainKind(config)}`);
    const r = await (await running(config, "usdc fund")).call<{ address: string; token: string; added: string; balance: string }>(
      "POST",
      "/usdc/fund",
      amount === undefined ? { address } : { address, amount },
    );
    out(json ? JSON.stringify(r) : `${r.address}: +${r.added} USDC units of ${r.token}, balance ${r.balance}`);
    return 0;
  }
  throw new UsageError(cmd ? `unknown command: ${argv.join(" ")}` : "no command given");
}

/** Errors the operator can act on get one line and exit 2; anything else is a bug (exit 1 with the stack). */
const KNOWN = [UsageError, DatabaseBusyError, ConfigError, ApiError, AdminProblem, AdminUnreachable, TimeRefused];

if (require.main === module) {
  runAdmin(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      if (err instanceof UsageError) console.error(`${err.message}\n${USAGE}`);
      else if (err instanceof ApiError || err instanceof AdminProblem) console.error(`${err.code}: ${err.detail}`);
      else if (KNOWN.some((k) => err instanceof k)) console.error((err as Error).message);
      else console.error(err);
      process.exit(KNOWN.some((k) => err instanceof k) ? 2 : 1);
    },
  );
}
