/** Human and JSON renderings of replay results (bigints as decimal strings). */
import type { JournalOp } from "../journal/ops";
import type { LedgerEntry } from "../ledger/movement";
import type { BatchResult } from "../replay/replay";

/** JSON-safe copy: bigints become decimal strings. */
export function toJsonValue<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v)));
}

/** One readable line per operation. */
export function describeOp(op: JournalOp): string {
  const { type, ...fields } = op;
  return `${type} ${Object.entries(fields).map(([k, v]) => `${k}=${String(v)}`).join(" ")}`;
}

/** The `--json` object of `decode <txHash>`. */
export function batchJson(batch: BatchResult, balances: LedgerEntry[]): unknown {
  return toJsonValue({
    nonce: batch.nonce,
    txHash: batch.txHash,
    kind: batch.kind,
    root: batch.computedRoot,
    expectedRoot: batch.expectedRoot,
    journalCommitment: batch.computedCommitment,
    expectedJournalCommitment: batch.expectedCommitment,
    rootOk: batch.rootOk,
    commitmentOk: batch.commitmentOk,
    operations: batch.kind === "journal" ? batch.ops : batch.movements,
    balances: balances.map((b) => ({ account: b.account, assetId: b.assetId, balance: b.balance })),
    ...(batch.error ? { error: batch.error } : {}),
    ...(batch.failedOp ? { failedOp: batch.failedOp } : {}),
  });
}

/** Where a mismatch happened, in one line. */
export function describeMismatch(batch: BatchResult): string {
  const parts = [`batch nonce ${batch.nonce} (tx ${batch.txHash}, block ${batch.blockNumber})`];
  if (!batch.rootOk) parts.push(`root expected ${batch.expectedRoot} computed ${batch.computedRoot}`);
  if (!batch.commitmentOk) parts.push(`commitment expected ${batch.expectedCommitment} computed ${batch.computedCommitment}`);
  // The error names the failing op ("op 2 (MATCH MINT) failed: …") when a movement broke a rule.
  if (batch.error) parts.push(`error: ${batch.error}`);
  return parts.join("; ");
}
