/**
 * Lifecycle webhooks (docs/resolution.md "Events") into the delivery queue: a `market.state_changed` goes to every
 * enabled subscription that takes it, of any account; a `payout.credited` to its holder's subscriptions that take it.
 * The events come from the journal projection (api/domain/lifecycle/events.ts), one page at a time, and are queued in
 * the order given; the caller wakes the worker when something was queued.
 */
import type { Database } from "../../../relayer/db/client";
import type { LifecycleWebhook } from "../../domain/lifecycle/events";
import { enqueueDelivery } from "../../domain/webhooks/store";
import { cachedSubscriptions, type Sub } from "./subscription-cache";

/** Queues every event for its subscriptions; returns how many deliveries were queued. */
export async function queueLifecycleWebhooks(db: Database, now: number, events: readonly LifecycleWebhook[]): Promise<number> {
  const stateSubs = events.some((e) => e.type === "market.state_changed") ? await stateSubscriptions(db) : [];
  const holders = [...new Set(events.flatMap((e) => (e.type === "payout.credited" ? [e.account] : [])))];
  const payoutSubs = new Map<string, string[]>();
  for (const s of holders.length === 0 ? [] : await subscriptionsFor(db, "payout.credited", holders))
    payoutSubs.set(s.account, [...(payoutSubs.get(s.account) ?? []), s.id]);
  let queued = 0;
  for (const e of events) {
    const ids = e.type === "market.state_changed" ? stateSubs.map((s) => s.id) : (payoutSubs.get(e.account) ?? []);
    for (const id of ids) {
      await enqueueDelivery(db, id, e.type, e.data, now);
      queued++;
    }
  }
  return queued;
}

/** Enabled subscriptions taking `market.state_changed`, of every account, kept in memory (every new market asks). */
function stateSubscriptions(db: Database): Promise<Sub[]> {
  const key = "market.state_changed"; // one entry for every account's (an account key is an address)
  return cachedSubscriptions(
    db,
    [key],
    () => subscriptionsFor(db, key, null),
    () => key,
  );
}

/**
 * Enabled subscriptions taking `eventType`, of the given accounts (null: every account). The JSON goes as text then
 * jsonb: a parameter typed jsonb would be serialised once more by the Postgres driver (a JSON string, never contained).
 */
function subscriptionsFor(db: Database, eventType: string, accounts: string[] | null): Promise<Sub[]> {
  return db.query<Sub>(
    `SELECT id, account FROM api_webhook_subscriptions WHERE status = 'enabled' AND event_types @> $1::text::jsonb AND ($2::text[] IS NULL OR account = ANY($2::text[]))`,
    [JSON.stringify([eventType]), accounts],
  );
}
