/** Human and JSON renderings of replay results (bigints as decimal strings). */
import { lifecycleSummary, type MarketLifecycleSummary } from "../journal/lifecycle-summary";
import type { JournalOp } from "../journal/ops";
import type { LedgerEntry } from "../ledger/movement";
import type { BallotFailure } from "../replay/ballots";
import type { BatchResult } from "../replay/replay";
import { toJsonValue } from "../json";

/** One readable line per operation. */
export function describeOp(op: JournalOp): string {
  const { type, ...fields } = op;
  return `${type} ${Object.entries(fields)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(" ")}`;
}

/** The `--json` object of `decode <txHash>`. */
export function batchJson(batch: BatchResult, balances: LedgerEntry[]): unknown {
  const lifecycle = lifecycleSummary(batch.ops);
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
    ballotOk: batch.ballotOk,
    operations: batch.kind === "journal" ? batch.ops : batch.movements,
    balances: balances.map((b) => ({ account: b.account, assetId: b.assetId, balance: b.balance })),
    ...(lifecycle.length > 0 ? { lifecycle } : {}),
    ...(batch.ballotFailures.length > 0 ? { ballotFailures: batch.ballotFailures } : {}),
    ...(batch.error ? { error: batch.error } : {}),
    ...(batch.failedOp ? { failedOp: batch.failedOp } : {}),
  });
}

/** One line per failed ballot check: `ballot BALLOT_MISMATCH at op 3: …`. */
export function describeBallotFailure(f: BallotFailure): string {
  return `ballot ${f.code} at op ${f.index}: ${f.message}`;
}

/**
 * The lifecycle lines of a batch (empty when it has none): per market, the states entered, the ballots revealed
 * and the count and collateral total of each kind of payment.
 */
export function describeLifecycle(summary: readonly MarketLifecycleSummary[]): string[] {
  if (summary.length === 0) return [];
  const lines = ["lifecycle:"];
  for (const m of summary) {
    const states = m.transitions.map((t) => (t.outcome === null ? t.state : `${t.state} (outcome ${t.outcome})`));
    lines.push(`  market ${m.marketId}: ${states.length > 0 ? states.join(", ") : "no state change"}`);
    if (m.ballots.length > 0) {
      const revealed = m.ballots.reduce((n, b) => n + b.count, 0);
      lines.push(`    ballots revealed: ${revealed} (${m.ballots.map((b) => `outcome ${b.outcome}: ${b.count}`).join(", ")})`);
    }
    for (const t of m.totals) lines.push(`    ${t.type}: ${t.count} totalling ${t.amount}`);
  }
  return lines;
}

/** Where a mismatch happened, in one line. */
export function describeMismatch(batch: BatchResult): string {
  const parts = [`batch nonce ${batch.nonce} (tx ${batch.txHash}, block ${batch.blockNumber})`];
  if (!batch.rootOk) parts.push(`root expected ${batch.expectedRoot} computed ${batch.computedRoot}`);
  if (!batch.commitmentOk) parts.push(`commitment expected ${batch.expectedCommitment} computed ${batch.computedCommitment}`);
  for (const f of batch.ballotFailures) parts.push(describeBallotFailure(f));
  // The error names the failing op ("op 2 (MATCH MINT) failed: …") when a movement broke a rule.
  if (batch.error) parts.push(`error: ${batch.error}`);
  return parts.join("; ");
}
