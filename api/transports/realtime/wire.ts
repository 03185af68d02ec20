/**
 * The one call that connects the realtime surface to its sources once the exchange exists:
 *   connectRealtimeSources(ctx, delivery, { reports: exchange, market: exchangeMarketEvents });
 * `reports` feeds SSE/WS (live + replay) and queues webhook deliveries; `market` feeds market channels.
 * On an API instance without the exchange pass `{ reports: tableReader, live: false }`: it replays from the shared
 * table and gets live events over Redis.
 */
import type { ServiceContext } from "../../context";
import { attachWebhookDispatch } from "../webhooks/dispatch";
import type { EventHub } from "./hub";
import type { MarketEventSource, ReportSource } from "./types";

export function connectRealtimeSources(
  ctx: ServiceContext,
  delivery: { hub: EventHub; webhooks: { wake(): void } },
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
