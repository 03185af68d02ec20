/** Shared request schemas and lane dispatch of the trade operations (docs/trading-onchain.md). */
import { z } from "zod";
import type { ServiceContext } from "../../context";
import type { Services } from "../../services";
import { ApiError } from "../../platform/errors/api-error";
import { getMarket } from "../../domain/markets/catalog-store";
import { TRADE_DEFAULTS } from "../../domain/trading/trade-defaults";
import type { CommittedTradeLane, TradeRequest } from "../../domain/trading/lanes";
import type { OnchainMarket } from "../../domain/onchain/reads";
import { onchainMarketOrNull } from "./onchain-lane";

export const tradeBody = z.strictObject({
  market: z.string().regex(/^0x[0-9a-fA-F]{40}$/).describe("market address (LmsrMarket for the onchain lane)"),
  outcome: z.number().int().min(0).max(2).describe("0 = YES, 1 = NO (binary); 0..2 ternary"),
  side: z.enum(["buy", "sell"]),
  shares: z.string().regex(/^[1-9]\d{0,30}$/).describe("shares in collateral base units (1 share pays 1 base unit)"),
  slippageBps: z.number().int().min(0).max(TRADE_DEFAULTS.slippageBpsMax).default(TRADE_DEFAULTS.slippageBpsDefault),
});
export type TradeBody = z.output<typeof tradeBody>;

export const toRequest = (b: TradeBody): TradeRequest => ({ market: b.market.toLowerCase(), outcome: b.outcome, side: b.side, shares: BigInt(b.shares), slippageBps: b.slippageBps });

export type Lane = { lane: "onchain"; market: OnchainMarket } | { lane: "committed"; impl: CommittedTradeLane };

/**
 * committed when the catalog lists the address on the committed lane (a local read, so PM trading never waits on the
 * projection); onchain when the projection knows it; else 404.
 */
export async function laneOf(ctx: ServiceContext, services: Services, address: string): Promise<Lane> {
  const listed = await getMarket(ctx.db, ctx.config.CHAIN_ID, address, ctx.clock.now());
  if (listed?.settlement === "committed") {
    const impl = services.trading.committed;
    if (await impl.owns(address)) return { lane: "committed", impl };
    throw new ApiError("SERVICE_UNAVAILABLE", "committed-lane trading is not available on this instance", { lane: "committed" }, { "Retry-After": "30" });
  }
  const m = await onchainMarketOrNull(services.onchain, address);
  if (m) return { lane: "onchain", market: m };
  throw new ApiError("MARKET_NOT_FOUND", `no tradable market at ${address}`);
}
