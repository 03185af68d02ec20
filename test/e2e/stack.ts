/**
 * The whole `npm start` stack for end-to-end tests, started exactly as a newcomer starts it:
 * `node --import tsx scripts/start.ts --fresh --no-demo-agents` with its own free ports, a temp DATA_DIR and a chain id
 * that is not 8453 (so deployments/<chainId>.json never touches a developer's file; it is removed on stop). With
 * DATABASE_URL the stack runs on Postgres in schemas of its own (dropped on stop). `stop()` sends SIGTERM and reports
 * the exit and every process of the stack's tree still running afterwards (the orphan check of .ci/smoke-start.sh).
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { deploymentFile } from "../../decoder/deployment";
import { freePort } from "../support/ports";

const ROOT = join(__dirname, "..", "..");

export interface E2eStack {
  /** The printed API base URL (…/api/agent/v1). */
  baseUrl: string;
  /** Scheme, host and port of the service. */
  origin: string;
  mcpUrl: string;
  rpcUrl: string;
  indexerUrl: string | null;
  chainId: number;
  /** The printed demo key (only with `demoAgents`; the tests run without: then null). */
  demoKey: string | null;
  /** The last lines the stack printed (stdout and stderr), for failure messages. */
  tail(lines?: number): string;
  /** The stack's DATA_DIR (its admin token is DATA_DIR/admin-token). */
  dataDir: string;
  /** Where the stack's deployments/<chainId>.json is. */
  deploymentsDir: string;
  /** Pid of scripts/start.ts (the stack's supervisor). */
  pid: number | undefined;
  stop(): Promise<StopReport>;
}

export interface StopReport {
  /** Exit code (or signal name) of scripts/start.ts after SIGTERM; "timeout" if it had to be killed. */
  exit: number | string;
  /** Processes of the stack's tree (recorded before SIGTERM) still alive afterwards, as "pid cmd". */
  leftover: string[];
}

export interface StartOptions {
  /** Extra environment of the stack (e.g. WEBHOOKS_ALLOW_PRIVATE). */
  env?: Record<string, string>;
  /** Give up on the ready line after this long. */
  readyTimeoutMs?: number;
  /** Run the demo agents (the market maker) and print the demo key (default false: `--no-demo-agents`). */
  demoAgents?: boolean;
  /** Run the Ponder indexer (default true). */
  indexer?: boolean;
  /** The chain id (default an unused one of 31000..39999); a fork's must be the forked chain's. */
  chainId?: number;
}

/** pid -> ppid of every process on the machine. */
function processTable(): Map<number, { ppid: number; stat: string; cmd: string }> {
  const out = execFileSync("ps", ["-e", "-o", "pid=,ppid=,stat=,args="], { encoding: "utf8" });
  const table = new Map<number, { ppid: number; stat: string; cmd: string }>();
  for (const line of out.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (m) table.set(Number(m[1]), { ppid: Number(m[2]), stat: m[3]!, cmd: m[4]! });
  }
  return table;
}

/** `root` and every descendant of it, by walking parent links. */
export function processTree(root: number): number[] {
  const table = processTable();
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, p] of table) if (p.ppid === tree[i]) tree.push(pid);
  return tree;
}

/** Of `pids`, those still running (a zombie has exited and only waits to be reaped: not running). */
function stillRunning(pids: number[]): string[] {
  const table = processTable();
  return pids.flatMap((pid) => {
    const p = table.get(pid);
    return p && !p.stat.startsWith("Z") ? [`${pid} ${p.cmd.slice(0, 160)}`] : [];
  });
}

/** A chain id of 31000..39999 whose deployments file does not exist yet. */
function unusedChainId(): number {
  for (let i = 0; i < 50; i++) {
    const id = 31_000 + Math.floor(Math.random() * 9_000);
    if (!existsSync(deploymentFile(id))) return id;
  }
  throw new Error("no unused chain id in 31000..39999 (stale deployments/<id>.json files?)");
}

async function dropSchemas(databaseUrl: string, exact: string[], prefixes: string[]): Promise<void> {
  const sql = (await import("postgres")).default(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ nspname: string }[]>`SELECT nspname FROM pg_namespace`;
    const names = rows.map((r) => r.nspname).filter((n) => exact.includes(n) || prefixes.some((p) => n.startsWith(p)));
    for (const n of names) await sql.unsafe(`DROP SCHEMA IF EXISTS "${n}" CASCADE`);
  } finally {
    await sql.end();
  }
}

export async function startStack(opts: StartOptions = {}): Promise<E2eStack> {
  const chainId = opts.chainId ?? unusedChainId();
  const [port, chainPort, ponderPort] = [await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), "pm-e2e-"));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  // A given chain id (8453 for the dev-chain tests) may be a developer's too: the schema gets a suffix of its own.
  const schema = opts.chainId ? `e2e_${chainId}_${Math.random().toString(36).slice(2, 8)}` : `e2e_${chainId}`;
  let ponderSchemas = `ponder_${chainId}_`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    CHAIN_PORT: String(chainPort),
    PONDER_PORT: String(ponderPort),
    CHAIN_ID: String(chainId),
    DATA_DIR: join(dir, "data"),
    // Its own deployments folder: a stack on chain 8453 never touches the developer's deployments/8453.json.
    DEPLOYMENTS_DIR: join(dir, "deployments"),
    BATCH_INTERVAL_MS: "300",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
    ...opts.env,
  };
  // The stack is a program of its own, not a test: nothing of this runner or a developer's stack may leak in.
  for (const k of ["NODE_TEST_CONTEXT", "RPC_URL", "FORK_URL", "PUBLIC_URL", "REDIS_URL", "STACK_CHILD", "DEMO_AGENTS"]) if (!opts.env?.[k]) delete env[k];
  if (!databaseUrl) {
    delete env.DATABASE_URL;
    delete env.DATABASE_SCHEMA;
  }

  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
    if (lines.length > 2_000) lines.splice(0, lines.length - 1_000);
  };
  const flags = ["--fresh", ...(opts.demoAgents ? [] : ["--no-demo-agents"]), ...(opts.indexer === false ? ["--no-indexer"] : [])];
  const proc: ChildProcess = spawn(process.execPath, ["--import", "tsx", join(ROOT, "scripts", "start.ts"), ...flags], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | string>((resolve) => proc.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  let exitValue: number | string | undefined;
  void exited.then((v) => (exitValue = v));
  createInterface({ input: proc.stderr! }).on("line", keep);

  // The ready block on stdout: "The agent prediction-market service is up." ... "Ctrl-C stops everything."
  const printed = new Map<string, string>();
  const ready = new Promise<void>((resolve) => {
    let inBlock = false;
    createInterface({ input: proc.stdout! }).on("line", (line) => {
      keep(line);
      if (line.includes("service is up")) inBlock = true;
      if (!inBlock) return;
      const m = /^\s{2}(API base URL|MCP URL|chain|indexer|demo API key)\s+(\S+)/.exec(line);
      if (m) printed.set(m[1]!, m[2]!);
      if (line.startsWith("Ctrl-C stops everything")) resolve();
    });
  });
  const tail = (n = 60) => lines.slice(-n).join("\n");

  let stopped: Promise<StopReport> | null = null;
  const stop = (): Promise<StopReport> =>
    (stopped ??= (async () => {
      const tree = proc.pid === undefined ? [] : processTree(proc.pid);
      let exit: number | string;
      if (exitValue === undefined) {
        proc.kill("SIGTERM");
        const timer = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 60_000).unref());
        exit = await Promise.race([exited, timer]);
      } else exit = exitValue;
      await new Promise((r) => setTimeout(r, 1_000));
      const leftover = stillRunning(tree);
      // Clean up whatever the stack left (the report still names it, so the test fails on it).
      for (const p of leftover) {
        try {
          process.kill(Number(p.split(" ")[0]), "SIGKILL");
        } catch {
          /* gone meanwhile */
        }
      }
      rmSync(dir, { recursive: true, force: true });
      if (databaseUrl) await dropSchemas(databaseUrl, [schema, `indexer_${chainId}`], [ponderSchemas]);
      return { exit, leftover };
    })());

  const timeoutMs = opts.readyTimeoutMs ?? 240_000;
  const outcome = await Promise.race([
    ready.then(() => "ready" as const),
    exited.then((code) => `exited with ${code}` as const),
    new Promise<string>((r) => setTimeout(() => r(`no ready line within ${timeoutMs} ms`), timeoutMs).unref()),
  ]);
  if (outcome !== "ready") {
    const log = tail(80);
    await stop();
    throw new Error(`npm start ${outcome}; last lines:\n${log}`);
  }
  if (opts.chainId) {
    // Only this chain instance's index (scripts/stack/indexer.ts names it after the genesis hash), not a developer's.
    const genesis = await fetch(`http://127.0.0.1:${chainPort}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["0x0", false] }),
    }).then((r) => r.json() as Promise<{ result: { hash: string } }>);
    ponderSchemas = `ponder_${chainId}_${genesis.result.hash.slice(2, 12)}`;
  }
  const baseUrl = printed.get("API base URL");
  const mcpUrl = printed.get("MCP URL");
  if (!baseUrl || !mcpUrl) {
    await stop();
    throw new Error(`the ready block lacks the API base URL or the MCP URL:\n${tail(20)}`);
  }
  return {
    baseUrl,
    origin: new URL(baseUrl).origin,
    mcpUrl,
    rpcUrl: `http://127.0.0.1:${chainPort}`,
    indexerUrl: printed.get("indexer") ?? null,
    chainId,
    demoKey: printed.get("demo API key") ?? null,
    deploymentsDir: join(dir, "deployments"),
    dataDir: join(dir, "data"),
    tail,
    pid: proc.pid,
    stop,
  };
}
