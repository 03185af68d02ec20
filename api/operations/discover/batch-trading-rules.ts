import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { getMarkets } from "../../domain/markets/catalog-store";
import { tradingRules, tradingRulesSchema } from "../../domain/markets/market-view";
import { chainIdQuery, PUBLIC_READ } from "./common";

const body = z.strictObject({
  chainId: chainIdQuery,
  marketAddresses: z
    .array(z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be 0x + 40 hex digits"))
    .min(1)
    .max(200),
});

const entry = z.union([
  z.object({ marketAddress: z.string(), found: z.literal(true), tradingRules: tradingRulesSchema }),
  z.object({ marketAddress: z.string(), found: z.literal(false), code: z.literal("MARKET_NOT_FOUND") }),
]);

/**
 * POST /discover/markets/batch-trading-rules: the static trading rules of up to 200 markets, one entry per requested
 * address in request order (duplicates repeated, each address echoed as sent). An unknown address is an entry with
 * `found: false` and code MARKET_NOT_FOUND, not a failure of the whole call.
 */
export const batchTradingRules = defineOperation({
  id: "batchTradingRules",
  method: "POST",
  path: "/discover/markets/batch-trading-rules",
  summary: "Static trading rules of many markets, echoed in request order",
  ...PUBLIC_READ,
  request: { body },
  response: z.object({ chainId: z.number().int(), results: z.array(entry) }),
  mcpTool: "svc_batch_trading_rules",
  async handler(ctx, { body: b }) {
    const found = await getMarkets(ctx.db, b.chainId, b.marketAddresses, ctx.clock.now());
    return {
      chainId: b.chainId,
      results: b.marketAddresses.map((a) => {
        const m = found.get(a.toLowerCase());
        return m
          ? { marketAddress: a, found: true as const, tradingRules: tradingRules(m) }
          : { marketAddress: a, found: false as const, code: "MARKET_NOT_FOUND" as const };
      }),
    };
  },
});
