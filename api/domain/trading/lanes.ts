/**
 * Trade lanes. An on-chain market (an LmsrMarket in the projection) trades through its collateral's IntentRouter
 * (api/operations/trade, docs/trading-onchain.md). A committed-lane market trades through the exchange engine:
 * `Services.trading.committed`, built from the venue in `createServices` (api/services.ts).
 */
import type { KeyPrincipal } from "../auth/principal";

export interface TradeRequest {
  market: string;
  outcome: number;
  side: "buy" | "sell";
  /** Shares in base units. */
  shares: bigint;
  slippageBps: number;
}

/** What the committed lane answers; JSON-able (integers as decimal strings). */
export type LaneAnswer = Record<string, unknown>;

export interface CommittedTradeLane {
  /** True when `address` is a committed-lane market this lane trades. */
  owns(address: string): Promise<boolean>;
  quote(req: TradeRequest, principal: KeyPrincipal): Promise<LaneAnswer>;
  prepare(req: TradeRequest, principal: KeyPrincipal): Promise<LaneAnswer>;
}
