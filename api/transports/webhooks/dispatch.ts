/**
 * From execution reports to webhook deliveries: each committed report goes to every enabled subscription of its
 * account that takes `execution:report`. Runs on the instance that holds the exchange (the report source); the
 * worker of any instance then sends. The report in `data` is the same object SSE and WebSocket carry.
 */
import type { Database } from "../../../relayer/db/client";
import type { Clock } from "../../../relayer/clock";
import { jsonSafe, type ExecutionReport, type ReportSource } from "../realtime/types";
import { enqueueDelivery } from "../../domain/webhooks/store";
import { cachedSubscriptions, type Sub } from "./subscription-cache";

const SELECT_SUBS = `SELECT id, account FROM api_webhook_subscriptions WHERE status = 'enabled' AND account = ANY($1::text[]) AND event_types @> '["execution:report"]'::jsonb`;

/** Enabled `execution:report` subscriptions of the accounts, kept in memory per account (every committed report batch asks). */
function subscriptionsOf(db: Database, accounts: string[]): Promise<Sub[]> {
  return cachedSubscriptions(
    db,
    accounts,
    (missing) => db.query<Sub>(SELECT_SUBS, [missing]),
    (s) => s.account,
  );
}

export async function enqueueReports(db: Database, clock: Clock, reports: readonly ExecutionReport[]): Promise<number> {
  const accounts = [...new Set(reports.map((r) => r.account.toLowerCase()))];
  if (accounts.length === 0) return 0;
  const subs = await subscriptionsOf(db, accounts);
  if (subs.length === 0) return 0;
  const now = clock.now();
  let n = 0;
  await db.transaction(async (tx) => {
    for (const r of reports) {
      for (const s of subs) {
        if (s.account !== r.account.toLowerCase()) continue;
        await enqueueDelivery(tx, s.id, "execution:report", { channel: "execution", seq: r.seq, at: r.at, report: jsonSafe(r) }, now);
        n++;
      }
    }
  });
  return n;
}

/** Subscribes to the source; each batch is queued and the worker woken. */
export function attachWebhookDispatch(
  source: Pick<ReportSource, "onReports">,
  deps: { db: Database; clock: Clock; wake: () => void; onError: (err: unknown) => void },
): () => void {
  let chain: Promise<unknown> = Promise.resolve();
  return source.onReports((reports) => {
    chain = chain
      .then(() => enqueueReports(deps.db, deps.clock, reports))
      .then((n) => n > 0 && deps.wake())
      .catch(deps.onError);
  });
}
