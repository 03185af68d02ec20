/**
 * Every `npm run bench:*` still runs and prints its lines. The benches are not timed here (speed is what they measure,
 * on an idle machine, never a test's business): each runs once at a small size and must exit 0 and print, one JSON
 * object per line, every `bench` name it promises with each named figure a finite number. Two benches once stopped
 * working on main unnoticed (a deployment left by an earlier `npm start`; a per-agent stream cap added later), since
 * nothing ran them between the sessions that measure.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";

const ROOT = join(__dirname, "..");

interface BenchSmoke {
  /** The npm script. */
  script: string;
  /** The script's file, run with tsx as npm runs it. */
  file: string;
  args?: string[];
  /** Small sizes: the env knobs each bench documents. */
  env: Record<string, string>;
  /** Each `bench` name it prints, with the figures that line must carry as numbers. */
  lines: Record<string, readonly string[]>;
  /** Figures that must be `true` (a check the bench makes of its own result). */
  checks?: Record<string, readonly string[]>;
}

const BENCHES: readonly BenchSmoke[] = [
  { script: "bench:merkle", file: "scripts/bench-merkle.ts", env: {}, lines: { merkle: ["leaves", "ms"], "merkle-vs-oz": ["ms", "ozMs", "ratio"] } },
  {
    script: "bench:discovery",
    file: "scripts/seed/bench-discovery.ts",
    args: ["--markets", "300"],
    env: {},
    lines: { "discovery-setup": ["markets", "ms"], discovery: ["p50Ms", "p95Ms"] },
  },
  {
    script: "bench:journal",
    file: "scripts/bench-journal.ts",
    env: { BENCH_COMMANDS: "1000", BENCH_SUBMITTERS: "16", BENCH_RUNNING_COMMANDS: "400", BENCH_SNAPSHOT_EVERY: "50" },
    lines: {
      journal: ["commandsPerSec", "p99Ms"],
      "journal-replay": ["entries", "entriesPerSec", "seconds"],
      "journal-snapshot": ["entries", "bytes", "takeMs", "openMs", "replayedEntries"],
      "journal-running-snapshots": ["snapshots", "byReplica", "commandsPerSec", "p99Ms", "maxMs", "maxLoopDelayMs"],
    },
  },
  { script: "bench:engine", file: "scripts/bench-engine.ts", env: { BENCH_ENGINE_OPS: "5000" }, lines: { engine: ["opsPerSec", "p99Us"] } },
  { script: "bench:indexer", file: "scripts/bench-indexer.ts", env: { TRADES: "3" }, lines: { indexer: ["p50Ms", "p99Ms"] } },
  {
    script: "bench:create",
    file: "scripts/bench-create.ts",
    env: { BENCH_MARKETS: "20", BENCH_CREATORS: "2", BENCH_CONCURRENCY: "4" },
    lines: { create: ["marketsPerSec", "p99Ms", "visibleP99Ms"] },
  },
  {
    script: "bench:resolution",
    file: "scripts/bench-resolution.ts",
    env: { BENCH_RESOLUTION_HOLDERS: "200" },
    lines: { resolution: ["holders", "payoutsPerSec", "confirmedMs"] },
    checks: { resolution: ["decodeOk"] },
  },
  {
    script: "bench:leaderboard",
    file: "scripts/bench-leaderboard.ts",
    env: { BENCH_OPS: "2000", BENCH_ACCOUNTS: "50", BENCH_MARKETS: "10", BENCH_COMMANDS: "500", BENCH_MORE_COMMANDS: "50" },
    lines: {
      "leaderboard-pass": ["opsPerSec"],
      "leaderboard-checkpoint": ["bytes", "encodeMs", "decodeMs"],
      "leaderboard-build": ["firstBuildMs", "incrementalBuildMs", "restoredBuildMs"],
    },
  },
  {
    script: "bench:api",
    file: "scripts/bench-api.ts",
    env: { BENCH_DURATION_S: "1", BENCH_SAMPLES: "5", BENCH_ORDER_CONNECTIONS: "10" },
    lines: {
      "api-reads": ["rps", "p50Ms", "p99Ms"],
      "api-orders-reference": ["connections", "rps", "p99Ms"],
      "api-orders": ["connections", "rps", "p50Ms", "p99Ms", "errors", "ratio"],
      "fill-to-report": ["p50Ms", "p99Ms"],
    },
  },
  {
    script: "bench:realtime",
    file: "scripts/bench-realtime.ts",
    env: { BENCH_CLIENTS: "3", BENCH_REPORTS: "20", BENCH_DELIVERIES: "5" },
    lines: { "realtime-ws": ["perSec", "p99Ms"], "realtime-sse": ["perSec", "p99Ms"], webhooks: ["perSec"] },
  },
];

/** Runs the bench to its end: exit code, stdout and the end of stderr (for a failure's message). */
function run(b: BenchSmoke): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...b.env };
  delete env.NODE_TEST_CONTEXT; // not a test of this runner's
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, b.file), ...(b.args ?? [])], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr = (stderr + c).slice(-4000)));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("every bench runs and prints its lines (at a small size)", { timeout: 20 * 60_000 }, () => {
  for (const b of BENCHES) {
    it(`${b.script}: ${Object.keys(b.lines).join(", ")}`, async () => {
      const { code, stdout, stderr } = await run(b);
      assert.equal(code, 0, `${b.script} exited ${code}:\n${stderr}`);
      const printed = stdout
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const line of printed) assert.equal(typeof line.bench, "string", `${b.script}: a line without a bench name: ${JSON.stringify(line)}`);
      for (const [name, figures] of Object.entries(b.lines)) {
        const mine = printed.filter((l) => l.bench === name);
        assert.ok(mine.length > 0, `${b.script} printed no "${name}" line:\n${stdout.slice(-2000)}`);
        for (const l of mine)
          for (const f of figures) assert.ok(Number.isFinite(l[f]), `${b.script}: "${name}".${f} is ${JSON.stringify(l[f])} in ${JSON.stringify(l)}`);
      }
      for (const [name, flags] of Object.entries(b.checks ?? {}))
        for (const l of printed.filter((x) => x.bench === name))
          for (const f of flags) assert.equal(l[f], true, `${b.script}: "${name}".${f} is ${JSON.stringify(l[f])}`);
    });
  }
});
