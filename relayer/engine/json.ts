/**
 * The JSON forms the journal stores (docs/journal.md): engine commands, decoder journal ops and execution reports.
 * Bigint fields travel as decimal strings (decoder/json.ts) and are revived by field name on the way back; each
 * list of names is checked by the compiler against its type, the ops' in the decoder beside the op definitions
 * (OP_BIGINT_FIELDS), so a stored value always revives to exactly the value that was written.
 */
import { OP_BIGINT_FIELDS, bigintFields, bigintReviver, stringifyJson, type JournalOp } from "../../decoder";
import type { Command, ExecutionReport } from "./types";

const reviveCommand = bigintReviver(bigintFields<Command>()("amount", "marketId", "size", "seed", "shares", "budget", "limit"));
const reviveOp = bigintReviver(OP_BIGINT_FIELDS);
const reviveReport = bigintReviver(bigintFields<ExecutionReport>()("size", "filledSize", "remainingSize", "fillSize", "fee"));

export function commandToJson(c: Command): string {
  return stringifyJson(c);
}
export function commandFromJson(s: string): Command {
  return JSON.parse(s, reviveCommand) as Command;
}
export function opsToJson(ops: readonly JournalOp[]): string {
  return stringifyJson(ops);
}
export function opsFromJson(s: string): JournalOp[] {
  return JSON.parse(s, reviveOp) as JournalOp[];
}
export function reportToJson(r: ExecutionReport): string {
  return stringifyJson(r);
}
export function reportFromJson(s: string): ExecutionReport {
  return JSON.parse(s, reviveReport) as ExecutionReport;
}
