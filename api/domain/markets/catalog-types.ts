/** The catalog's market record as the API code sees it (one shape for both settlement lanes). */
import type { MarketState } from "../protocol/market-states";

export type PricingModel = "automated" | "ORDERBOOK";
export type Settlement = "committed" | "onchain";

export interface ElectionFields {
  region: "US" | "CA" | "WORLD";
  /** Two uppercase letters, or US-XX / CA-XX. */
  place?: string | null;
  office?: string | null;
}

export interface CollateralFacts {
  symbol: string;
  decimals: number;
  token?: string | null;
}

/** What a caller gives to list a market; omitted trading rules take the venue defaults (fee-defaults.ts). */
export interface NewCatalogMarket {
  chainId: number;
  settlement: Settlement;
  /** Required for onchain rows (the LmsrMarket address); committed rows derive it from marketId. */
  address?: string;
  /** Committed lane: the engine's market id; allocated (max + 1 on the chain) when absent. */
  marketId?: bigint;
  pricingModel: PricingModel;
  title: string;
  description?: string;
  category: string;
  outcomes: string[];
  creator: string;
  collateral?: CollateralFacts;
  state?: MarketState;
  openTime: number;
  closeTime: number;
  takerFeeBps?: number;
  feePolicyVersion?: "notional-v1" | "shares-v2";
  sellExitFeeBps?: number;
  winningsExitFeeBps?: number;
  tickSizeBps?: number;
  minSize?: bigint;
  lmsrSeed?: bigint;
  resolutionSource: Record<string, unknown>;
  sourceConditionId?: string;
  sourceTokenIds?: string[];
  election?: ElectionFields;
  externalId?: string;
  createdAt: number;
}

export interface CatalogMarket {
  /** Catalog row id. */
  pk: bigint;
  chainId: number;
  address: string;
  marketId: bigint | null;
  settlement: Settlement;
  pricingModel: PricingModel;
  title: string;
  description: string;
  category: string;
  outcomes: string[];
  /** Effective state at the time of the read: a stored `open` past closeTime reads `closed`. */
  state: MarketState;
  creator: string;
  collateral: { symbol: string; decimals: number; token: string | null };
  openTime: number;
  closeTime: number;
  creatorResolveBy: number;
  challengeBy: number | null;
  humanVoteEndsAt: number | null;
  councilReviewEndsAt: number | null;
  resolvedAt: number | null;
  resolvedOutcome: number | null;
  takerFeeBps: number;
  feePolicyVersion: string;
  sellExitFeeBps: number;
  winningsExitFeeBps: number;
  tickSizeBps: number;
  minSize: bigint;
  lmsrSeed: bigint | null;
  resolutionSource: Record<string, unknown>;
  sourceConditionId: string | null;
  sourceTokenIds: string[] | null;
  election: { region: string; place: string | null; office: string | null } | null;
  externalId: string | null;
  /** Parts per million of probability per outcome; null where nothing has traded (order books). */
  lastPricesPpm: (number | null)[];
  lastTradeAt: number | null;
  volumeTotal: bigint;
  volume24h: bigint;
  tradeCount: number;
  createdAt: number;
}
