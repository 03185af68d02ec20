/** Pieces the discovery operations share: the public read envelope, input schemas, the market lookup. */
import { z } from "zod";
import type { ServiceContext } from "../../context";
import { ApiError } from "../../platform/errors/api-error";
import { getMarket } from "../../domain/markets/catalog-store";
import type { CatalogMarket } from "../../domain/markets/catalog-types";
import { chainIdQuery } from "../../platform/schemas/chain-id";

/** Fields every public discovery read shares (no key needed; per-IP limits apply). */
export const PUBLIC_READ = {
  category: "discovery",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
} as const;

export const evmAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be 0x + 40 hex digits")
  .transform((a) => a.toLowerCase());
export { chainIdQuery };
export const addressParams = z.strictObject({ address: evmAddress });
/** Query of the per-market reads: `chainId` (default: the service's chain). */
export const marketChainQuery = z.strictObject({ chainId: chainIdQuery.optional() });

export async function requireMarket(ctx: ServiceContext, address: string, chainId: number | undefined): Promise<CatalogMarket> {
  const chain = chainId ?? ctx.config.CHAIN_ID;
  const m = await getMarket(ctx.db, chain, address, ctx.clock.now());
  if (!m) throw new ApiError("MARKET_NOT_FOUND", `no market ${address} on chain ${chain}`, { address, chainId: chain });
  return m;
}
