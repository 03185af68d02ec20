/**
 * `npm test`: every test of the project.
 *   1. Solidity contracts through `hardhat test` (mocha), under test/contracts/.
 *   2. The TypeScript tests (`*.test.ts` beside the code) through node's test runner with tsx.
 * Flags: --ts-only, --contracts-only; any other argument is a path filter for the TS tests.
 * The TS tests run on PGlite by default and on Postgres when DATABASE_URL is set.
 * The figure lines the test files print (one JSON object with a `bench`, `fault` or `crash` key) are collected by a
 * second reporter (scripts/test-figures-reporter.mjs) and printed again at the end; with FIGURES_FILE set they are also
 * appended to that file (CI prints all its steps' figures at its end, scripts/figures.ts).
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
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
    // Node's own default reporter (spec on a terminal, TAP otherwise) to stdout, and the figures to a file.
    const figuresDir = mkdtempSync(join(tmpdir(), "test-figures-"));
    const figuresFile = join(figuresDir, "figures.jsonl");
    const reporters = [
      `--test-reporter=${process.stdout.isTTY ? "spec" : "tap"}`,
      "--test-reporter-destination=stdout",
      `--test-reporter=${join(__dirname, "test-figures-reporter.mjs")}`,
      `--test-reporter-destination=${figuresFile}`,
    ];
    // One file at a time. Two at a time was tried (2026-11-29: 867 s -> 752 s on Postgres) and failed a CI run: the USDC
    // and decoder tests met on one Hardhat node. Most likely a port from `freePort` was taken twice in the seconds a
    // node needs to start, and the decoder test's wait accepts whatever chain answers on its port.
    failed += run(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=1", ...reporters, ...files]) === 0 ? 0 : 1;
    let figures = "";
    try {
      figures = readFileSync(figuresFile, "utf8");
    } catch {
      /* no test printed a figure */
    }
    rmSync(figuresDir, { recursive: true, force: true });
    console.log(`\n${summary(figures)}`);
    if (process.env.FIGURES_FILE && figures) appendFileSync(process.env.FIGURES_FILE, figures);
  }
}
process.exit(failed === 0 ? 0 : 1);
