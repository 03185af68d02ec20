/**
 * The stored (committed) execution reports of one order. The report store is the journal's: a report exists exactly
 * when the command that produced it is durable, which is what makes confirm-cancel receipt-authoritative.
 */
import type { Address } from "viem";
import type { SqlRunner } from "../../../relayer/db/client";
import { reportFromJson, type ExecutionReport } from "../../../relayer/engine";

/** The last committed report of `orderId` for `account`, or null when none is committed yet. */
export async function lastCommittedReport(db: SqlRunner, account: Address, orderId: string): Promise<ExecutionReport | null> {
  const [row] = await db.query<{ body: string }>(
    `SELECT body::text AS body FROM execution_reports WHERE account = $1 AND body->>'orderId' = $2 ORDER BY seq DESC LIMIT 1`,
    [account.toLowerCase(), orderId],
  );
  return row ? reportFromJson(String(row.body)) : null;
}
