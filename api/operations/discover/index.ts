/** The discovery and market-catalog operations, static paths before `{address}` ones. */
import type { AnyOperation } from "../../registry/types";
import { batchTradingRules } from "./batch-trading-rules";
import { getChains } from "./get-chains";
import { getCollateral } from "./get-collateral";
import { getContracts } from "./get-contracts";
import { getFees } from "./get-fees";
import { getDiscoverMarket } from "./get-market";
import { getMarketStates } from "./get-market-states";
import { getRenderers } from "./get-renderers";
import { getRules } from "./get-rules";
import { getTokenRelease } from "./get-token-release";
import { listDiscoverMarkets } from "./list-markets";
import { marketChart } from "./market-chart";
import { marketDepth } from "./market-depth";
import { marketExists } from "./market-exists";
import { marketHolders } from "./market-holders";
import { marketTrades } from "./market-trades";
import { relatedMarkets } from "./related-markets";
import { getMarketsConfig } from "./get-markets-config";
import { listPendingResolution } from "./pending-resolution";
import { getResolutionState } from "./resolution-state";
import { getResolutionSources } from "./get-resolution-sources";
import { getReputation } from "./get-reputation";
import { getLeaderboard } from "./get-leaderboard";
import { getTradingProfile } from "./get-trading-profile";
import { getPnlHistory } from "./get-pnl-history";

export const DISCOVERY_OPERATIONS: AnyOperation[] = [
  getFees,
  getRules,
  getChains,
  getCollateral,
  getContracts,
  getTokenRelease,
  getMarketStates,
  getRenderers,
  getMarketsConfig,
  getResolutionSources,
  getReputation,
  getLeaderboard,
  getTradingProfile,
  getPnlHistory,
  listDiscoverMarkets,
  marketExists,
  listPendingResolution,
  batchTradingRules,
  getDiscoverMarket,
  relatedMarkets,
  marketDepth,
  marketChart,
  marketTrades,
  marketHolders,
  getResolutionState,
];
