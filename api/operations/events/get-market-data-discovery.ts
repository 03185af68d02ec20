import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { marketDataDiscovery } from "./catalog";
import { PUBLIC_CATALOG } from "./get-events-discovery";

/** GET /market-data/discovery: the market channels (book snapshot, deltas, trades, price frames). */
export const getMarketDataDiscovery = defineOperation({
  id: "getMarketDataDiscovery",
  method: "GET",
  path: "/market-data/discovery",
  summary: "Market-data catalog: book snapshot and delta, trade and price-frame messages, per-market sequence and resync",
  ...PUBLIC_CATALOG,
  response: z.looseObject({
    version: z.string(),
    eventKinds: z.array(z.looseObject({ type: z.string() })),
    subscribe: z.record(z.string(), z.unknown()),
    resync: z.string(),
  }),
  mcpTool: "svc_get_market_data_discovery",
  async handler(ctx, _input, call) {
    return marketDataDiscovery(call.origin, { heartbeatMs: ctx.config.REALTIME_HEARTBEAT_MS });
  },
});
