/**
 * Markets' lives as events (docs/resolution.md "Events"), from the journal projection's rows:
 *   - every MARKET_STATE: the catalog row follows it (state, deadlines, outcome), a `market:state` event goes out on the
 *     market's data lane, and a `market.state_changed` webhook to every subscription that takes it;
 *   - every holder payout or refund: a `payout.credited` webhook to the holder's subscriptions, carrying the
 *     movementKey that GET /claims/receipts and GET /claims/available name, so the holder can reconcile it.
 * Rows arrive in journal order once committed; a failure is logged and the next rows still go out. What goes out
 * where is the sinks' business (the realtime hub, the webhook queue: api/transports), so this domain module names
 * the events and no transport.
 */
import type { LifecycleView } from "../../../relayer/engine";
import type { ServiceContext } from "../../context";
import type { LifecycleRow } from "./journal-projection";
import { movementKeyOf } from "./movements";

/** A lifecycle webhook event: a state change goes to every account's subscriptions, a payout to its holder's. */
export type LifecycleWebhook =
  | { type: "market.state_changed"; data: Record<string, unknown> }
  | { type: "payout.credited"; account: string; data: Record<string, unknown> };

export interface LifecycleEventSinks {
  /** The market data lane (ExchangeMarketEvents.announce). */
  announce(marketId: string, type: "market:state", at: number, data: Record<string, unknown>): void;
  /** The engine's lifecycle of a market now (for the deadlines the catalog mirrors). */
  lifecycle(marketId: bigint): LifecycleView | undefined;
  /** Queues the page's webhook events, in order, for the subscriptions that take them. */
  webhooks(events: LifecycleWebhook[]): Promise<void>;
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
  const webhooks: LifecycleWebhook[] = [];
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
    webhooks.push({ type: "market.state_changed", data: { ...data, at: iso(r.at) } });
  }
  for (const p of rows) {
    if (p.kind !== "RESOLUTION_PAYOUT" && p.kind !== "VOID_REFUND") continue;
    webhooks.push({
      type: "payout.credited",
      account: p.account!,
      data: {
        marketId: p.marketId.toString(),
        account: p.account,
        kind: p.kind,
        outcome: p.side,
        shares: p.shares?.toString() ?? "0",
        amount: p.amount.toString(),
        movementKey: movementKeyOf(p),
        at: iso(p.at),
      },
    });
  }
  if (webhooks.length > 0) await sinks.webhooks(webhooks);
}

/** The market's state before `r`: the MARKET_STATE projected just before it (null for the first, `open`). */
async function previousState(ctx: ServiceContext, r: LifecycleRow): Promise<string | null> {
  const [row] = await ctx.db.query<{ state: string }>(
    `SELECT state FROM lifecycle_ops WHERE market_id = $1 AND kind = 'MARKET_STATE' AND (entry_seq, idx) < ($2, $3) ORDER BY entry_seq DESC, idx DESC LIMIT 1`,
    [r.marketId.toString(), r.entrySeq, r.idx],
  );
  return row?.state ?? null;
}
