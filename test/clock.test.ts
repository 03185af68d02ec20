/**
 * Time comes from the injectable clock (relayer/clock.ts): no service module reads the wall clock, so a test's manual
 * clock and an operator's time advance move every deadline, expiry and `Retry-After` alike. This test fails on
 * `Date.now()` and on an argument-less `new Date()` in api/, relayer/ and indexer/ outside the clock module; a line
 * that must read the wall clock says why with a `wall-clock:` comment on it or on the line above. Tests and benchmarks
 * are not service modules; durations use the monotonic `performance.now()`.
 */
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";

const ROOT = join(__dirname, "..");
const SERVICE_FOLDERS = ["api", "relayer", "indexer"];
const CLOCK_MODULE = "relayer/clock.ts";
const SKIP_DIRS = new Set(["node_modules", ".ponder", "generated"]);
const WALL_CLOCK = /\bDate\.now\(\s*\)|\bnew Date\(\s*\)/;

function serviceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) serviceFiles(full, out);
    } else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") && !e.name.endsWith(".d.ts")) out.push(relative(ROOT, full));
  }
  return out;
}

/** Every `file:line` that reads the wall clock without a `wall-clock:` reason beside it. */
export function wallClockReads(files: readonly string[], read: (file: string) => string): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (file === CLOCK_MODULE) continue;
    const lines = read(file).split("\n");
    lines.forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, "");
      if (!WALL_CLOCK.test(code)) return;
      if (/wall-clock:/.test(line) || /wall-clock:/.test(lines[i - 1] ?? "")) return;
      found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

describe("the service reads time only from its clock", () => {
  it("no Date.now() or argument-less new Date() in api/, relayer/, indexer/ outside relayer/clock.ts", () => {
    const files = SERVICE_FOLDERS.flatMap((d) => serviceFiles(join(ROOT, d)));
    assert.ok(files.length > 100, "the scan found the service's files");
    assert.deepEqual(
      wallClockReads(files, (f) => readFileSync(join(ROOT, f), "utf8")),
      [],
    );
  });

  it("catches both forms and honours a stated reason", () => {
    const source: Record<string, string> = {
      "api/a.ts": "const t = Date.now();\nconst d = new Date( );\nconst ok = new Date(ms);",
      "api/b.ts": "// wall-clock: a file's mtime is a wall-clock instant\nconst age = Date.now() - mtime;",
      "relayer/clock.ts": "export const systemClock = { now: () => Date.now() };",
    };
    assert.deepEqual(
      wallClockReads(Object.keys(source), (f) => source[f]!),
      ["api/a.ts:1: const t = Date.now();", "api/a.ts:2: const d = new Date( );"],
    );
  });
});
