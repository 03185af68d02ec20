/**
 * From execution reports to webhook deliveries: each committed report goes to every enabled subscription of its
 * account that takes `execution:report`. Runs on the instance that holds the exchange (the report source); the
 * worker of any instance then sends. The report in `data` is the same object SSE and WebSocket carry.
 */
import type { Database } from "../../../relayer/db/client";
import type { Clock } from "../../../relayer/clock";
import { jsonSafe, type ExecutionReport, type ReportSource } from "../realtime/types";
import { enqueueDelivery } from "./store";
import { ANY_TABLE, perDatabase } from "../../../relayer/db/written-tables";

/**
 * Enabled `execution:report` subscriptions per account, kept in memory (every committed report batch asks): any local
 * write of `api_webhook_subscriptions` drops them all after it committed; the TTL bounds another instance's write.
 */
const SUBS_TTL_MS = 1_000;
const SUBS_MAX = 10_000;
type Sub = { id: string; account: string };
const subsCacheOf = perDatabase((db) => {
  const entries = new Map<string, { expiresAt: number; subs: readonly Sub[] }>();
  let generation = 0;
  db.onWrite((tables) => {
    if (tables.includes("api_webhook_subscriptions") || tables.includes(ANY_TABLE)) {
      entries.clear();
      generation++;
    }
  });
  return { entries, generation: () => generation };
});

const SELECT_SUBS = `SELECT id, account FROM api_webhook_subscriptions WHERE status = 'enabled' AND account = ANY($1::text[]) AND event_types @> '["execution:report"]'::jsonb`;

async function subscriptionsOf(db: Database, accounts: string[]): Promise<Sub[]> {
  const cache = subsCacheOf(db);
  if (!cache) return db.query<Sub>(SELECT_SUBS, [accounts]);
  const now = performance.now();
  const missing = accounts.filter((a) => !((cache.entries.get(a)?.expiresAt ?? 0) > now));
  if (missing.length > 0) {
    const generation = cache.generation();
    const rows = await db.query<Sub>(SELECT_SUBS, [missing]);
    // A subscription written while this read ran: read them all afresh and keep nothing.
    if (generation !== cache.generation()) return db.query<Sub>(SELECT_SUBS, [accounts]);
    for (const a of missing) cache.entries.set(a, { expiresAt: now + SUBS_TTL_MS, subs: rows.filter((r) => r.account === a) });
    while (cache.entries.size > SUBS_MAX) cache.entries.delete(cache.entries.keys().next().value as string);
  }
  return accounts.flatMap((a) => cache.entries.get(a)?.subs ?? []);
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
