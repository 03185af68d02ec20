/**
 * `npm start`: the whole stack on one machine, on embedded defaults.
 *   0. with FORK_URL, the forked chain's id and block, read first (an unreachable FORK_URL stops here; scripts/stack/fork.ts),
 *   1. a local Hardhat chain (unless RPC_URL points at one), a fork of FORK_URL at that block when set,
 *   2. the contracts, deployed once per chain (deployments/<chainId>.json), with the chain's canonical USDC where it
 *      has code there, else a test USDC planted at that address; the dev wallets funded with it (docs/dev-chain.md),
 *   3. the service process (API, relayer, batcher) on PGlite in DATA_DIR or on Postgres (DATABASE_URL),
 *   4. the Ponder indexer on the same chain and the same kind of database.
 *   5. the demo market maker (scripts/demo-agents/market-maker.ts), in this process, quoting the ORDERBOOK markets.
 * Flags: --fresh (start empty), --no-indexer, --no-demo-agents.
 * Ctrl-C or SIGTERM stops every child (and their children) within 5 s, at any moment; a SIGKILL of this process
 * takes them down too (each runs under a guard, scripts/stack/guard.cjs). A port taken before start is one message.
 */
import { rmSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../api/config";
import { startChild, stopChildrenWithin, type Child } from "./stack/children";
import { startLocalChain } from "./stack/chain";
import { ensureDeployment } from "./stack/deployment";
import { assertPortsFree, PortsTaken, type PortClaim } from "./stack/ports";
import { probeFork, type ForkPoint } from "./stack/fork";
import { startIndexer } from "./stack/indexer";
import { GiveUp, waitFor } from "./stack/wait";
import { watchParent } from "../api/platform/process/parent-watch";
import { runMarketMaker } from "./demo-agents/market-maker";

const ROOT = join(__dirname, "..");
/** From a SIGTERM or SIGINT to the last child gone (the promise is 5 s; the rest is this process's own exit). */
const STOP_BUDGET_MS = 4_500;
/** How long the in-process demo market maker may take to stop before the children go anyway. */
const DEMO_STOP_MS = 500;

interface StartFlags {
  fresh: boolean;
  indexer: boolean;
  demoAgents: boolean;
}

const USAGE = "usage: npm start [-- --fresh] [--no-indexer] [--no-demo-agents]";
const FLAGS = {
  fresh: { type: "boolean" },
  "no-indexer": { type: "boolean" },
  "no-demo-agents": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function parseFlags(argv: string[]): StartFlags & { help: boolean } {
  const values = (() => {
    try {
      return parseArgs({ args: argv, options: FLAGS }).values;
    } catch {
      const known = Object.keys(FLAGS)
        .filter((f) => f !== "help")
        .map((f) => `--${f}`);
      const bad = argv.find((a) => !known.includes(a)) ?? argv.join(" ");
      throw new ConfigError("argument", `${bad} is not a flag of npm start (known: ${known.join(", ")})`);
    }
  })();
  return { fresh: values.fresh === true, indexer: values["no-indexer"] !== true, demoAgents: values["no-demo-agents"] !== true, help: values.help === true };
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  if (flags.help) {
    console.log(USAGE);
    return;
  }
  let config = loadConfig();
  let fork: ForkPoint | undefined;
  if (config.FORK_URL && !config.RPC_URL) {
    // Before anything starts: an unreachable FORK_URL is one line and exit 1, nothing half-started.
    fork = await probeFork(config.FORK_URL, config.FORK_BLOCK);
    // The stack runs with the forked chain's id (children read it from the environment too).
    if (fork.chainId !== config.CHAIN_ID && process.env.CHAIN_ID) console.error(`CHAIN_ID ${config.CHAIN_ID} ignored: FORK_URL's chain is ${fork.chainId}`);
    process.env.CHAIN_ID = String(fork.chainId);
    config = loadConfig();
  }
  if (flags.fresh) rmSync(config.dataDir, { recursive: true, force: true });
  mkdirSync(config.dataDir, { recursive: true });

  const children: Child[] = [];
  // The demo market maker runs in this process (docs/demo-agents.md): stopped first, before the service it talks to.
  const demoAgents = new AbortController();
  let demoAgentsDone: Promise<unknown> = Promise.resolve();
  let stopping = false;
  const stopAll = async (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    console.error(`stopping (${why})...`);
    demoAgents.abort();
    await Promise.race([demoAgentsDone, new Promise((r) => setTimeout(r, DEMO_STOP_MS))]);
    // The service and the indexer together, then the chain they both talk to, all within the budget.
    const chain = children.filter((c) => c.name === "chain");
    await stopChildrenWithin([children.filter((c) => c.name !== "chain"), chain], STOP_BUDGET_MS - (Date.now() - started));
    process.exit(code);
  };
  // A child spawned while a stop is under way (start-up was mid-step) is stopped at once, never left behind.
  const track = (child: Child) => {
    children.push(child);
    if (stopping) void stopChildrenWithin([[child]], 0);
  };
  /** Between start-up steps: a stop under way ends start-up (stopAll exits the process). */
  const stillStarting = () => {
    if (stopping) throw new Stopped();
  };
  process.on("SIGINT", () => void stopAll("SIGINT", 0));
  process.on("SIGTERM", () => void stopAll("SIGTERM", 0));
  watchParent(() => void stopAll("parent process exited", 0));

  try {
    await assertPortsFree(portClaims(config, flags));
    if (!config.RPC_URL) {
      const forking = fork ? `, a fork of ${config.FORK_URL} at block ${fork.block}` : "";
      console.error(`starting the local chain on ${config.rpcUrl} (chain id ${config.CHAIN_ID}${forking})...`);
      await startLocalChain({ port: config.CHAIN_PORT, chainId: config.CHAIN_ID, forkUrl: config.FORK_URL, forkBlock: fork?.block }, track);
    }
    stillStarting();
    const deployment = await ensureDeployment(config);
    console.error(`contracts: ${deployment.file}${deployment.deployedNow ? " (deployed now)" : " (reused)"}`);
    console.error(`USDC: ${deployment.usdc.address} (${deployment.usdc.origin})`);
    if (deployment.funded.length) console.error(`USDC: ${deployment.funded.length} Hardhat dev wallets funded (balance slot written)`);

    stillStarting();
    // The service and the indexer start side by side: neither needs the other to start (the service reads the index
    // when it is there), and the indexer's start-up is the longest step.
    const indexing = flags.indexer && config.INDEXER_ENABLED;
    if (indexing) console.error("starting the service and the indexer...");
    const [ready, indexer] = await Promise.all([startServiceChild(flags, track), indexing ? startIndexer(config, deployment, track) : undefined]);
    const indexerUrl = indexer?.url;
    stillStarting();

    console.log(
      [
        "",
        "The agent prediction-market service is up.",
        `  web site       ${new URL(ready.baseUrl).origin}/`,
        `  API base URL   ${ready.baseUrl}`,
        `  MCP URL        ${ready.mcpUrl}`,
        `  OpenAPI        ${ready.baseUrl}/openapi.json`,
        `  chain          ${config.rpcUrl} (chain id ${config.CHAIN_ID}${fork ? `, fork of block ${fork.block}` : ""})`,
        `  USDC           ${deployment.usdc.address} (${deployment.usdc.origin})`,
        `  data           ${ready.data}`,
        ...(indexerUrl ? [`  indexer        ${indexerUrl} (Ponder: /status, /ledger/batches)`] : []),
        ...(ready.demoKey
          ? [`  demo API key   ${ready.demoKey}   (execute tier; try: curl -H "Authorization: Bearer ${ready.demoKey}" ${ready.baseUrl}/me)`]
          : []),
        ...(ready.marketMakerKey ? ["  demo agents    a market maker quotes the ORDERBOOK markets (docs/demo-agents.md; --no-demo-agents turns it off)"] : []),
        "Ctrl-C stops everything.",
        "",
      ].join("\n"),
    );
    for (const child of children) {
      void child.exited.then((code) => void stopAll(`${child.name} exited with ${code}`, 1));
    }
    if (flags.demoAgents && ready.marketMakerKey) {
      // Never takes the stack down: every failure is a logged line inside, and this catch is the last guard.
      demoAgentsDone = runMarketMaker({
        baseUrl: ready.baseUrl,
        apiKey: ready.marketMakerKey,
        signal: demoAgents.signal,
        log: (line) => process.stderr.write(`[demo-agents] ${line}\n`),
      }).catch((err) => process.stderr.write(`[demo-agents] market maker stopped: ${(err as Error).message}\n`));
    }
  } catch (err) {
    if (err instanceof Stopped) return; // stopAll is already under way and exits the process
    console.error(startFailure(err));
    await stopAll("start failed", 1);
  }
}

class Stopped extends Error {}

function startFailure(err: unknown): string {
  return err instanceof ConfigError || err instanceof PortsTaken ? err.message : `start failed: ${(err as Error).message}`;
}

/** The ports this start listens on: the chain's (unless RPC_URL names one), the service's and the indexer's. */
function portClaims(config: ReturnType<typeof loadConfig>, flags: StartFlags): PortClaim[] {
  const claims: PortClaim[] = [];
  if (!config.RPC_URL) claims.push({ variable: "CHAIN_PORT", port: config.CHAIN_PORT, host: "127.0.0.1" });
  claims.push({ variable: "PORT", port: config.PORT, host: config.HOST });
  if (flags.indexer && config.INDEXER_ENABLED) claims.push({ variable: "PONDER_PORT", port: config.PONDER_PORT, host: "127.0.0.1" });
  return claims;
}

interface ServiceReady {
  baseUrl: string;
  mcpUrl: string;
  data: string;
  demoKey?: string;
  /** Key of the demo market maker (DEMO_AGENTS=true); never printed. */
  marketMakerKey?: string;
}

/** Runs api/main.ts as a child and waits for its one `service-ready` JSON line. */
async function startServiceChild(flags: StartFlags, track: (child: Child) => void): Promise<ServiceReady> {
  let ready: ServiceReady | undefined;
  const child = startChild("service", process.execPath, ["--import", "tsx", join(ROOT, "api", "main.ts")], {
    cwd: ROOT,
    env: { ...process.env, DEMO_AGENTS: flags.demoAgents ? "true" : "false", STACK_CHILD: "true" },
    quiet: false,
    onLine: (line) => {
      if (!line.startsWith('{"event":"service-ready"')) return;
      ready = JSON.parse(line) as ServiceReady;
      return false; // summarised below without the market maker's key
    },
  });
  track(child);
  let exitCode: number | string | undefined;
  void child.exited.then((c) => (exitCode = c));
  return waitFor(
    "the service",
    async () => {
      if (exitCode !== undefined) throw new GiveUp(`the service exited (${exitCode})`);
      return ready;
    },
    180_000,
    100,
  );
}

main().catch((err) => {
  console.error(startFailure(err));
  process.exit(1);
});
