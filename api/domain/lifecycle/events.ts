/**
 * Markets' lives as events (docs/resolution.md "Events"), from the journal projection's rows:
 *   - every MARKET_STATE: the catalog row follows it (state, deadlines, outcome), a `market:state` event goes out on the
 *     market's data lane, and a `market.state_changed` webhook to every subscription that takes it;
 *   - every holder payout or refund: a `payout.credited` webhook to the holder's subscriptions, carrying the
 *     movementKey that GET /claims/receipts and GET /claims/available name, so the holder can reconcile it.
 * Rows arrive in journal order once committed; a failure is logged and the next rows still go out.
 */
import type { LifecycleView } from "../../../relayer/engine";
import type { ServiceContext } from "../../context";
import { enqueueDelivery } from "../../transports/webhooks/store";
import { cachedSubscriptions } from "../../transports/webhooks/subscription-cache";
import type { LifecycleRow } from "./journal-projection";
import { movementKeyOf } from "./movements";

export interface LifecycleEventSinks {
  /** The market data lane (ExchangeMarketEvents.announce). */
  announce(marketId: string, type: "market:state", at: number, data: Record<string, unknown>): void;
  /** The engine's lifecycle of a market now (for the deadlines the catalog mirrors). */
  lifecycle(marketId: bigint): LifecycleView | undefined;
  /** Wakes the webhook worker after deliveries were queued. */
  wake(): void;
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

/** The catalog follows the journal: state, the new stage's deadlines and the final outcome. */
async function syncCatalog(ctx: ServiceContext, r: LifecycleRow, l: LifecycleView | undefined): Promise<void> {
  const final = r.state === "resolved" || r.state === "void";
  await ctx.db.query(
    `UPDATE markets SET state = $3, challenge_by = COALESCE($4, challenge_by), human_vote_ends_at = COALESCE($5, human_vote_ends_at),
       council_review_ends_at = COALESCE($6, council_review_ends_at), resolved_outcome = COALESCE($7, resolved_outcome),
       resolved_at = CASE WHEN $8 THEN COALESCE(resolved_at, $9) ELSE resolved_at END
     WHERE chain_id = $1 AND market_id = $2`,
    [
      ctx.config.CHAIN_ID,
      r.marketId.toString(),
      r.state,
      l?.challengeBy ?? null,
      l?.vote?.endsAt ?? null,
      l?.councilReviewEndsAt ?? null,
      r.state === "resolved" ? r.side : null,
      final,
      r.at,
    ],
  );
}

export async function publishLifecycleRows(ctx: ServiceContext, sinks: LifecycleEventSinks, rows: LifecycleRow[]): Promise<void> {
  const states = rows.filter((r) => r.kind === "MARKET_STATE");
  const prev = new Map<string, string | null>();
  let queued = 0;
  const stateSubs = states.length === 0 ? [] : await stateSubscriptions(ctx);
  for (const r of states) {
    const id = r.marketId.toString();
    const l = sinks.lifecycle(r.marketId);
    // `open` is a market's first state (no transition leads back to it), which its listing already holds with none
    // of the later stages' deadlines: nothing to write, and no state before it.
    if (r.state === "open") prev.set(id, null);
    else {
      await syncCatalog(ctx, r, l);
      if (!prev.has(id)) prev.set(id, await previousState(ctx, r));
    }
    const data = {
      marketId: id,
      state: r.state,
      outcome: r.side,
      previous: prev.get(id) ?? null,
      nextActionDeadline: iso(l?.nextActionDeadline),
      entrySeq: r.entrySeq,
    };
    prev.set(id, r.state);
    sinks.announce(id, "market:state", r.at, data);
    for (const s of stateSubs) {
      await enqueueDelivery(ctx.db, s.id, "market.state_changed", { ...data, at: iso(r.at) }, ctx.clock.now());
      queued++;
    }
  }
  const payouts = rows.filter((r) => r.kind === "RESOLUTION_PAYOUT" || r.kind === "VOID_REFUND");
  if (payouts.length > 0) {
    const subs = await subscriptionsFor(ctx, "payout.credited", [...new Set(payouts.map((p) => p.account!))]);
    if (subs.length > 0) {
      const byAccount = new Map<string, string[]>();
      for (const s of subs) byAccount.set(s.account, [...(byAccount.get(s.account) ?? []), s.id]);
      for (const p of payouts) {
        for (const id of byAccount.get(p.account!) ?? []) {
          await enqueueDelivery(
            ctx.db,
            id,
            "payout.credited",
            {
              marketId: p.marketId.toString(),
              account: p.account,
              kind: p.kind,
              outcome: p.side,
              shares: p.shares?.toString() ?? "0",
              amount: p.amount.toString(),
              movementKey: movementKeyOf(p),
              at: iso(p.at),
            },
            ctx.clock.now(),
          );
          queued++;
        }
      }
    }
  }
  if (queued > 0) sinks.wake();
}

/** The market's state before `r`: the MARKET_STATE projected just before it (null for the first, `open`). */
async function previousState(ctx: ServiceContext, r: LifecycleRow): Promise<string | null> {
  const [row] = await ctx.db.query<{ state: string }>(
    `SELECT state FROM lifecycle_ops WHERE market_id = $1 AND kind = 'MARKET_STATE' AND (entry_seq, idx) < ($2, $3) ORDER BY entry_seq DESC, idx DESC LIMIT 1`,
    [r.marketId.toString(), r.entrySeq, r.idx],
  );
  return row?.state ?? null;
}

/** Enabled subscriptions taking `market.state_changed`, of every account, kept in memory (every new market asks). */
function stateSubscriptions(ctx: ServiceContext): Promise<{ id: string; account: string }[]> {
  const key = "market.state_changed"; // one entry for every account's (an account key is an address)
  return cachedSubscriptions(
    ctx.db,
    [key],
    () => subscriptionsFor(ctx, key, null),
    () => key,
  );
}

/**
 * Enabled subscriptions taking `eventType`, of the given accounts (null: every account). The JSON goes as text then
 * jsonb: a parameter typed jsonb would be serialised once more by the Postgres driver (a JSON string, never contained).
 */
async function subscriptionsFor(ctx: ServiceContext, eventType: string, accounts: string[] | null): Promise<{ id: string; account: string }[]> {
  return ctx.db.query<{ id: string; account: string }>(
    `SELECT id, account FROM api_webhook_subscriptions WHERE status = 'enabled' AND event_types @> $1::text::jsonb AND ($2::text[] IS NULL OR account = ANY($2::text[]))`,
    [JSON.stringify([eventType]), accounts],
  );
}
