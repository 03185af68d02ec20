import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { buildCollateral } from "../../domain/protocol/chains";
import { currentDeployment } from "../../domain/markets/venue-documents";
import { chainIdQuery, PUBLIC_READ } from "./common";

export const collateralTokenSchema = z.object({
  token: z.string(),
  symbol: z.string().min(1).max(16),
  decimals: z.number().int().min(0).max(30),
  chainId: z.number().int(),
  enabled: z.boolean(),
  settlement: z.string().describe("committed or onchain").optional(),
});

/** GET /discover/collateral: collateral tokens (chainId optional: one chain is active; another chain lists none). */
export const getCollateral = defineOperation({
  id: "getCollateral",
  method: "GET",
  path: "/discover/collateral",
  summary: "Collateral tokens",
  ...PUBLIC_READ,
  request: { query: z.strictObject({ chainId: chainIdQuery.optional() }) },
  response: z.object({ tokens: z.array(collateralTokenSchema) }),
  mcpTool: "svc_get_collateral",
  async handler(ctx, { query }) {
    if (query.chainId !== undefined && query.chainId !== ctx.config.CHAIN_ID) return { tokens: [] };
    return buildCollateral(currentDeployment(ctx.config));
  },
});
