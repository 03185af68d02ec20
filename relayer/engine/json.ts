/**
 * The JSON forms the journal stores (docs/journal.md): engine commands, decoder journal ops and execution reports.
 * Bigint fields travel as decimal strings (decoder/json.ts) and are turned back into bigint by field name on the way
 * back; each list of names is checked by the compiler against its type, the ops' in the decoder beside the op
 * definitions (OP_BIGINT_FIELDS), so a stored value always reads back as exactly the value that was written.
 */
import {
  COLLATERAL_ASSET,
  CreditReason,
  OP_BIGINT_FIELDS,
  bigintFields,
  bigintParser,
  decodePayload,
  encodePayload,
  stringifyJson,
  type JournalOp,
} from "../../decoder";
import type { Command, ExecutionReport } from "./types";

const parseCommand = bigintParser(bigintFields<Command>()("amount", "marketId", "size", "seed", "shares", "budget", "limit"));
const parseOps = bigintParser(OP_BIGINT_FIELDS);
const parseReport = bigintParser(bigintFields<ExecutionReport>()("size", "filledSize", "remainingSize", "fillSize", "fee"));

export function commandToJson(c: Command): string {
  return stringifyJson(c);
}
export function commandFromJson(s: string): Command {
  return parseCommand(s) as Command;
}
/**
 * From this many ops on, an entry's ops are stored as one PMJ5 payload (base64) in a JSON object, `{"pmj5":"…"}`,
 * instead of a JSON array: a market's finality pays every holder in one entry (100,000 holders ≈ 18 MB of JSON
 * against ≈ 4 MB here), and both the database write and the parse are linear in those bytes. Below it, entries stay
 * readable JSON arrays. The form follows from the op count alone, so a replay writes exactly the stored text.
 */
export const COMPACT_OPS_MIN = 1_000;
/** The header treasury of a stored payload: the journal's ops name no treasury (the batcher's payloads do). */
const STORED_TREASURY = "0x0000000000000000000000000000000000000000";

export function opsToJson(ops: readonly JournalOp[]): string {
  if (ops.length < COMPACT_OPS_MIN) return stringifyJson(ops);
  try {
    return compactOpsJson(ops);
  } catch {
    // An op PMJ5 cannot carry (the batcher would refuse it too) must still be journaled: the engine already applied
    // it. The array form keeps it, and `sameOps` compares such an entry as an array.
    return stringifyJson(ops);
  }
}
function compactOpsJson(ops: readonly JournalOp[]): string {
  const bytes = encodePayload(ops, { treasury: STORED_TREASURY });
  return `{"pmj5":"${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64")}"}`;
}
export function opsFromJson(s: string): JournalOp[] {
  if (s.startsWith("{")) {
    const { pmj5 } = JSON.parse(s) as { pmj5: string };
    return decodePayload(new Uint8Array(Buffer.from(pmj5, "base64"))).ops;
  }
  return parseOps(s) as JournalOp[];
}
/**
 * Whether `ops` are the ops stored as `stored` (the rebuild's determinism check), compared in the stored text's own
 * form: an entry written as an array before COMPACT_OPS_MIN existed still compares as an array.
 */
export function sameOps(stored: string, ops: readonly JournalOp[]): boolean {
  const inStoredForm = (x: readonly JournalOp[]) => (stored.startsWith("{") ? compactOpsJson(x) : stringifyJson(x));
  if (inStoredForm(ops) === stored) return true;
  // An entry journaled before the exit fees of a finality were swept in one op (relayer/engine/payouts.ts).
  const merged = legacyFeesMerged(opsFromJson(stored));
  return merged !== null && inStoredForm(merged) === inStoredForm(ops);
}

/**
 * A finality's ops as journaled before payHolders swept the winners' exit fees in one op: each winner's fee followed
 * its RESOLUTION_PAYOUT (a FEE_SWEEP from an LMSR pool, a CREDIT reason FEE_SWEEP to the treasury on an order book).
 * Returns them as the engine writes them now (the same movements in total: one fee op of the sum after the market's
 * run of payouts), or null when `ops` hold no such per-winner fee op.
 */
function legacyFeesMerged(ops: readonly JournalOp[]): JournalOp[] | null {
  const out: JournalOp[] = [];
  let run: bigint | null = null; // the market whose run of payouts is being read
  let first: JournalOp | null = null; // the run's first fee op, and the sum of the run's fees
  let sum = 0n;
  let found = false;
  const endRun = (): void => {
    if (first) out.push({ ...first, amount: sum } as JournalOp);
    run = null;
    first = null;
    sum = 0n;
  };
  for (const op of ops) {
    const fee =
      run !== null &&
      ((op.type === "FEE_SWEEP" && op.marketId === run) || (op.type === "CREDIT" && op.reason === CreditReason.FEE_SWEEP && op.assetId === COLLATERAL_ASSET)) &&
      (first === null || (first as JournalOp).type === op.type);
    if (fee && (op.type === "FEE_SWEEP" || op.type === "CREDIT")) {
      first ??= op;
      sum += op.amount;
      found = true;
      continue;
    }
    if (op.type === "RESOLUTION_PAYOUT" && run === op.marketId) {
      out.push(op);
      continue;
    }
    endRun();
    if (op.type === "RESOLUTION_PAYOUT") run = op.marketId;
    out.push(op);
  }
  endRun();
  return found ? out : null;
}
export function reportToJson(r: ExecutionReport): string {
  return stringifyJson(r);
}
export function reportFromJson(s: string): ExecutionReport {
  return parseReport(s) as ExecutionReport;
}
