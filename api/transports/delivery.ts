/**
 * The transports that deliver events to agents (`Delivery`: the realtime hub that SSE and the WebSocket endpoint
 * read, and the webhook worker), and the one call that connects them to their sources once the exchange exists:
 *   connectRealtimeSources(ctx, delivery, { reports: exchange, market: exchangeMarketEvents });
 * `reports` feeds SSE/WS (live + replay) and queues webhook deliveries; `market` feeds market channels.
 * On an API instance without the exchange pass `{ reports: tableReader, live: false }`: it replays from the shared
 * table and gets live events over Redis.
 */
import type { ServiceContext } from "../context";
import { attachWebhookDispatch } from "./webhooks/dispatch";
import type { EventHub } from "./realtime/hub";
import type { MarketEventSource, ReportSource } from "./realtime/types";
import type { WebhookWorker } from "./webhooks/worker";

/** Built beside `Services` by `createServices` (api/open-services.ts), fed by the venue and the resolution. */
export interface Delivery {
  /** Realtime fan-out (docs/realtime.md): in process, or Redis pub/sub with REDIS_URL. */
  hub: EventHub;
  /** Webhook delivery worker (docs/webhooks.md); deliveries are queued from the venue's execution reports. */
  webhooks: WebhookWorker;
}

export function connectRealtimeSources(
  ctx: ServiceContext,
  delivery: { hub: EventHub; webhooks: Pick<WebhookWorker, "wake"> },
  src: { reports?: ReportSource; market?: MarketEventSource; live?: boolean },
): () => void {
  const live = src.live !== false;
  const offs: (() => void)[] = [];
  const onError = (err: unknown) => ctx.log.error({ err }, "realtime source");
  if (src.reports) {
    offs.push(delivery.hub.attachReports(src.reports, { live }));
    if (live) offs.push(attachWebhookDispatch(src.reports, { db: ctx.db, clock: ctx.clock, wake: () => delivery.webhooks.wake(), onError }));
  }
  if (src.market) offs.push(delivery.hub.attachMarketEvents(src.market, { live }));
  return () => offs.forEach((off) => off());
}
