/**
 * The `markets` channel of the market data lane: one `market:listed` event per market the negotiate flow lists, so
 * a client learns of a new market without polling discovery. Subscribe with {"type":"subscribe","channel":"markets"}
 * (WebSocket) or `?listings=true` (SSE). Live only: a gap (a reconnect) is closed by `GET /discover/markets?sort=new`.
 */
import type { CatalogMarket } from "../../domain/markets/catalog-types";
import type { EventHub } from "./hub";
import type { StreamMessage } from "./streams";

export const LISTINGS_TOPIC = "markets";
/** The channel name clients subscribe to and messages carry. */
export const LISTINGS_CHANNEL = "markets";

/** Per publishing instance; listings are live-only, so the seq orders them but promises no gap-free history. */
let seq = 0;

export function announceListing(hub: EventHub, m: CatalogMarket, at: number): void {
  const data = {
    address: m.address,
    chainId: m.chainId,
    marketId: m.marketId === null ? null : m.marketId.toString(),
    settlement: m.settlement,
    pricingModel: m.pricingModel,
    title: m.title,
    category: m.category,
    outcomes: m.outcomes,
    creator: m.creator,
    state: m.state,
    closeTime: new Date(m.closeTime).toISOString(),
  };
  hub.publish([{ topic: LISTINGS_TOPIC, type: "market:listed", seq: ++seq, at, data }]).catch(() => {});
}

/** Sends every listing announced from now on (any instance: delivery comes off the hub's bus); returns the unsubscribe. */
export function subscribeListings(hub: EventHub, send: (m: StreamMessage) => void): () => void {
  return hub.subscribe(LISTINGS_TOPIC, (e) => send({ type: e.type, channel: LISTINGS_CHANNEL, seq: e.seq, at: e.at, data: e.data }));
}
