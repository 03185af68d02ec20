import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { buildCollateral } from "../../domain/protocol/chains";
import { currentDeployment } from "../../domain/markets/venue-documents";
import { collateralTokenSchema } from "./get-collateral";
import { PUBLIC_READ } from "./common";

/**
 * GET /markets/config: the served collateral set, with the lanes each serves (PM: committed ledger, order book and
 * LMSR; router collaterals: on chain, LMSR).
 */
export const getMarketsConfig = defineOperation({
  id: "getMarketsConfig",
  method: "GET",
  path: "/markets/config",
  summary: "Served collateral set",
  ...PUBLIC_READ,
  category: "markets",
  request: { query: z.strictObject({}) },
  response: z.object({
    chainId: z.number().int(),
    collaterals: z.array(collateralTokenSchema.extend({ pricingModels: z.array(z.enum(["automated", "ORDERBOOK"])) })),
  }),
  mcpTool: "svc_get_markets_config",
  async handler(ctx) {
    const { tokens } = buildCollateral(currentDeployment(ctx.config));
    return {
      chainId: ctx.config.CHAIN_ID,
      collaterals: tokens.map((t) => ({
        ...t,
        pricingModels: t.settlement === "committed" ? (["ORDERBOOK", "automated"] as const).slice() : (["automated"] as const).slice(),
      })),
    };
  },
});
