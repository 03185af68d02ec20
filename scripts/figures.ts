/**
 * The figures tests and soaks print: one JSON object per line with a `bench`, `fault` or `crash` key (docs/faults.md).
 * `npm test` collects those its test files print (scripts/test-figures-reporter.mjs) and ends with them; CI gathers
 * every step's into one file and prints them at the end with a digest of what issue 19 asks to see: cases run (fuzz),
 * cells checked (auth matrix), restarts survived (stop/start), orders lost and doubled (the fault tests).
 *
 *   tsx scripts/figures.ts <file>   prints the file's figure lines and the digest
 */
import { existsSync, readFileSync } from "node:fs";

type Figure = Record<string, unknown>;
const KINDS = ["bench", "fault", "crash"] as const;

/** The figure in `line` (a JSON object naming its bench, fault or crash), or null. Per-operation fuzz tallies are not. */
export function figureOf(line: string): Figure | null {
  const text = line.trim().replace(/^#\s*/, "");
  if (!text.startsWith("{")) return null;
  try {
    const v = JSON.parse(text) as unknown;
    if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
    return KINDS.some((k) => typeof (v as Figure)[k] === "string") ? (v as Figure) : null;
  } catch {
    return null;
  }
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const sum = (figures: Figure[], key: string) => figures.reduce((n, f) => n + (num(f[key]) ?? 0), 0);

/** One line: the headline figures, summed over the runs that report them ("not run" when none did). */
export function digest(figures: Figure[]): string {
  const named = (v: string) => figures.filter((f) => f.bench === v || f.fault === v || f.crash === v);
  const fuzz = named("fuzz");
  const auth = named("auth-matrix");
  const stops = named("stop-start");
  const withOrders = figures.filter((f) => num(f.ordersLost) !== null || num(f.ordersDoubled) !== null);
  const soak = named("soak");
  const parts = [
    fuzz.length ? `fuzz cases ${sum(fuzz, "cases")} (5xx ${sum(fuzz, "fiveXx")}, defects ${sum(fuzz, "defects")})` : "fuzz not run",
    auth.length ? `auth-matrix cells ${sum(auth, "cells")} (as expected ${sum(auth, "asExpected")})` : "auth-matrix not run",
    stops.length ? `restarts survived ${sum(stops, "restarts")}` : "stop-start not run",
    withOrders.length
      ? `orders lost ${sum(withOrders, "ordersLost")}, doubled ${sum(withOrders, "ordersDoubled")} (${withOrders.length} fault runs)`
      : "no fault run reported orders",
    ...soak.map((s) => `soak ${s.seconds} s: errors ${s.errors}, rssMbPerMin ${s.rssMbPerMin}, rootOk ${s.rootOk}`),
  ];
  return parts.join(" · ");
}

/** The figure lines of `text` and the digest, as printed at the end of a run. */
export function summary(text: string): string {
  const figures = text
    .split("\n")
    .map(figureOf)
    .filter((f): f is Figure => f !== null);
  return [`figures (${figures.length}):`, ...figures.map((f) => JSON.stringify(f)), `digest: ${digest(figures)}`].join("\n");
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: tsx scripts/figures.ts <file>");
    process.exit(2);
  }
  console.log(summary(existsSync(file) ? readFileSync(file, "utf8") : ""));
}
