import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { buildFees } from "../../domain/markets/fee-defaults";
import { PUBLIC_READ } from "./common";

const bps = z.number().int().min(0).max(10_000);

/** GET /discover/fees: the canonical default fee schedule; markets keep the rates stamped on them. */
export const getFees = defineOperation({
  id: "getFees",
  method: "GET",
  path: "/discover/fees",
  summary: "Default fee schedule (per-market stamped rates prevail)",
  ...PUBLIC_READ,
  request: { query: z.strictObject({}) },
  response: z.object({
    chainId: z.number().int(),
    lmsr: z.object({ buyFeeBps: z.literal(0), sellExitFeeBps: bps, winningsExitFeeBps: bps }),
    orderbook: z.object({ feePolicyVersion: z.enum(["notional-v1", "shares-v2"]), placeFeeBps: z.literal(0), routerTakerFeeBps: bps, operatorBatchFeeBps: bps, winningsExitFeeBps: bps }),
    note: z.string().optional(),
    notes: z.array(z.string()).optional(),
  }),
  mcpTool: "svc_get_fees",
  async handler(ctx) {
    return buildFees(ctx.config.CHAIN_ID);
  },
});
