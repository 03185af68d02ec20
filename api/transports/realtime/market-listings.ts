/**
 * The `markets` channel of the market data lane: one `market:listed` event per market the negotiate flow lists, so
 * a client learns of a new market without polling discovery. Subscribe with {"type":"subscribe","channel":"markets"}
 * (WebSocket) or `?listings=1` (SSE). Live only: a gap is closed by `GET /discover/markets?sort=new`.
 */
import type { CatalogMarket } from "../../domain/markets/catalog-types";
import type { EventHub } from "./hub";

export const LISTINGS_TOPIC = "markets";

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
