import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { buildChains } from "../../domain/protocol/chains";
import { PUBLIC_READ } from "./common";

export const chainDetailSchema = z.object({
  chainId: z.number().int(),
  name: z.string(),
  type: z.string(),
  blockExplorerUrl: z.string(),
  enabled: z.boolean(),
  rpc: z.object({
    publicUrl: z.string(),
    readAfterWriteWindowMs: z.number().int().min(0).max(30_000),
    recommendedReadStrategy: z.string().describe("pin-to-receipt-block"),
    recommendedPriorityFeeWei: z.string().regex(/^\d+$/),
  }),
});

/** GET /discover/chains: the chains the venue runs on. */
export const getChains = defineOperation({
  id: "getChains",
  method: "GET",
  path: "/discover/chains",
  summary: "Chains the venue runs on",
  ...PUBLIC_READ,
  request: { query: z.strictObject({}) },
  response: z.object({ chains: z.array(chainDetailSchema) }),
  mcpTool: "svc_get_chains",
  async handler(ctx) {
    return buildChains({ chainId: ctx.config.CHAIN_ID, publicRpcUrl: ctx.config.rpcUrl });
  },
});
