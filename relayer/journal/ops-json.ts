/**
 * JSON form of decoder JournalOps as the journal stores them: bigint fields as decimal strings, everything else as is.
 * The field list is closed (decoder/journal/ops.ts), so a stored op revives to exactly the op that was written.
 */
import type { JournalOp } from "../../decoder";

const BIGINT_FIELDS = new Set(["assetId", "amount", "marketId", "shares", "fee", "collateral", "payout", "refund"]);

export function opsToJson(ops: readonly JournalOp[]): string {
  return JSON.stringify(ops, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
}

export function opsFromJson(text: string): JournalOp[] {
  return JSON.parse(text, (k, v) => (BIGINT_FIELDS.has(k) && typeof v === "string" ? BigInt(v) : v)) as JournalOp[];
}
