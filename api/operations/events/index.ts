/** The realtime catalogs (docs/realtime.md). The streams themselves are mounted by api/transports/realtime (not registry operations). */
import type { AnyOperation } from "../../registry/types";
import { getEventsDiscovery } from "./get-events-discovery";
import { getMarketDataDiscovery } from "./get-market-data-discovery";

export const EVENTS_OPERATIONS: AnyOperation[] = [getEventsDiscovery, getMarketDataDiscovery];
