/**
 * `npm test`: every test of the project.
 *   1. Solidity contracts through `hardhat test` (mocha), under test/contracts/.
 *   2. The TypeScript tests (`*.test.ts` beside the code) through node's test runner with tsx.
 * Flags: --ts-only, --contracts-only; any other argument is a path filter for the TS tests. TS test files run two at
 * a time (TEST_CONCURRENCY), except the fault, crash, fuzz and end-to-end tests, which run one at a time after them.
 * The TS tests run on PGlite by default and on Postgres when DATABASE_URL is set.
 * The figure lines the test files print (one JSON object with a `bench`, `fault` or `crash` key) are collected by a
 * second reporter (scripts/test-figures-reporter.mjs) and printed again at the end; with FIGURES_FILE set they are also
 * appended to that file (CI prints all its steps' figures at its end, scripts/figures.ts).
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { summary } from "./figures";
import { parseArgs } from "node:util";

const USAGE = "usage: tsx scripts/test.ts [--ts-only | --contracts-only] [path-substring ...]";
const root = join(__dirname, "..");
// Not strict: an unknown flag is ignored, as it always was (e.g. flags meant for another runner).
const { values, positionals: filters } = parseArgs({
  allowPositionals: true,
  strict: false,
  options: { "ts-only": { type: "boolean" }, "contracts-only": { type: "boolean" }, help: { type: "boolean", short: "h" } },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const tsOnly = values["ts-only"] === true;
const contractsOnly = values["contracts-only"] === true;

const TS_TEST_ROOTS = ["decoder", "relayer", "api", "indexer", "scripts", "test"];
const SKIP_DIRS = new Set(["node_modules", "artifacts", "cache", ".ponder", ".data", "contracts", "generated"]);

function findTests(dir: string, out: string[]): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (!SKIP_DIRS.has(name)) findTests(full, out);
    } else if (name.endsWith(".test.ts")) out.push(relative(root, full));
  }
  return out;
}

/** Paths (prefixes) of the test files that run alone: see the TS step below. */
const RUN_ALONE = ["test/faults/", "test/e2e/", "test/fuzz/", "relayer/exchange/crash.test.ts"];
const runsAlone = (file: string) => RUN_ALONE.some((p) => file.startsWith(p));
const CONCURRENCY = Number(process.env.TEST_CONCURRENCY ?? Math.min(2, availableParallelism()));

function run(cmd: string, cmdArgs: string[]): number {
  console.log(`\n$ ${cmd} ${cmdArgs.join(" ")}`);
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: "inherit", env: process.env });
  return r.status ?? 1;
}

let failed = 0;
if (!tsOnly) failed += run("npx", ["hardhat", "test"]) === 0 ? 0 : 1;
if (!contractsOnly) {
  const files = TS_TEST_ROOTS.flatMap((d) => findTests(join(root, d), []))
    .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
    .sort();
  if (files.length === 0) {
    console.error("no TypeScript test files found");
    failed += 1;
  } else {
    // Compile contracts first so tests that deploy them find fresh artifacts.
    if (tsOnly) run("npx", ["hardhat", "compile", "--quiet"]);
    // Files that stop processes, restart servers or hold a stopwatch to a promise (the fault tests' 5 s stop, the crash
    // tests' kill under load) and the end-to-end tests that start the whole stack run one at a time, alone on the
    // machine; every other file runs TEST_CONCURRENCY at a time (default: the CPU count, at most 2). A file's start-up
    // (loading the TypeScript tree) is about 2 s, a third of the suite's time, and that is what running side by side
    // hides. Each file takes its own temp dirs, Postgres schema and Redis prefix, and its ports from test/support/ports.ts,
    // whose lock files keep two files off one port (without them, two files once met on one Hardhat node).
    const alone = files.filter(runsAlone);
    const together = files.filter((f) => !runsAlone(f));
    const figuresDir = mkdtempSync(join(tmpdir(), "test-figures-"));
    const runFiles = (part: string[], concurrency: number, name: string) => {
      if (part.length === 0) return;
      // Node's own default reporter (spec on a terminal, TAP otherwise) to stdout, and the figures to a file.
      const reporters = [
        `--test-reporter=${process.stdout.isTTY ? "spec" : "tap"}`,
        "--test-reporter-destination=stdout",
        `--test-reporter=${join(__dirname, "test-figures-reporter.mjs")}`,
        `--test-reporter-destination=${join(figuresDir, `${name}.jsonl`)}`,
      ];
      failed += run(process.execPath, ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, ...reporters, ...part]) === 0 ? 0 : 1;
    };
    runFiles(together, CONCURRENCY, "together");
    runFiles(alone, 1, "alone");
    let figures = "";
    for (const name of ["together", "alone"]) {
      try {
        figures += readFileSync(join(figuresDir, `${name}.jsonl`), "utf8");
      } catch {
        /* that part printed no figure, or did not run */
      }
    }
    rmSync(figuresDir, { recursive: true, force: true });
    console.log(`\n${summary(figures)}`);
    if (process.env.FIGURES_FILE && figures) appendFileSync(process.env.FIGURES_FILE, figures);
  }
}
process.exit(failed === 0 ? 0 : 1);
