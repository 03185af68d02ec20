import type { ServiceContext } from "../../context";
import type { CatalogMarket } from "../../domain/markets/catalog-types";
import { evmAddress, requireMarket } from "../discover/common";
import { chainIdInput } from "../../platform/schemas/chain-id";

export const CONTENT_CATEGORY = "content";

/** `{marketAddress, chainId?}` of the content writes (chainId defaults to the service's chain, as in discovery). */
export const marketRefFields = {
  marketAddress: evmAddress.describe("the market's address (GET /discover/markets)"),
  chainId: chainIdInput.optional().describe("default: the service's chain"),
};

export function marketOfBody(ctx: ServiceContext, body: { marketAddress: string; chainId?: number }): Promise<CatalogMarket> {
  return requireMarket(ctx, body.marketAddress, body.chainId);
}
