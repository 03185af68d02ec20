/**
 * JSON forms of engine commands, journal ops and execution reports: bigint fields travel as decimal strings
 * (the house rule for money), and are revived by field name on the way back.
 */
import type { JournalOp } from "../../decoder";
import type { Command, ExecutionReport } from "./types";

const COMMAND_BIGINTS = new Set(["amount", "marketId", "size", "seed", "shares", "budget", "limit"]);
const OP_BIGINTS = new Set(["assetId", "amount", "marketId", "shares", "fee", "collateral", "payout", "refund"]);
const REPORT_BIGINTS = new Set(["size", "filledSize", "remainingSize", "fillSize", "fee"]);

function replacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

function reviverFor(keys: Set<string>) {
  return (key: string, value: unknown): unknown =>
    keys.has(key) && typeof value === "string" && /^-?\d+$/.test(value) ? BigInt(value) : value;
}

const reviveCommand = reviverFor(COMMAND_BIGINTS);
const reviveOp = reviverFor(OP_BIGINTS);
const reviveReport = reviverFor(REPORT_BIGINTS);

export function commandToJson(c: Command): string {
  return JSON.stringify(c, replacer);
}
export function commandFromJson(s: string): Command {
  return JSON.parse(s, reviveCommand) as Command;
}
export function opsToJson(ops: readonly JournalOp[]): string {
  return JSON.stringify(ops, replacer);
}
export function opsFromJson(s: string): JournalOp[] {
  return JSON.parse(s, reviveOp) as JournalOp[];
}
export function reportToJson(r: ExecutionReport): string {
  return JSON.stringify(r, replacer);
}
export function reportFromJson(s: string): ExecutionReport {
  return JSON.parse(s, reviveReport) as ExecutionReport;
}
/** Any engine value (results, views) as JSON with bigint as decimal strings. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, replacer);
}
