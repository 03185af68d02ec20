import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { PUBLIC_READ } from "./common";

const bps = z.number().int().min(0).max(10_000);

/** GET /discover/fees: the fee defaults read live from the factories on chain; markets keep the rates stamped on them. */
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
    orderbook: z.object({
      feePolicyVersion: z.enum(["notional-v1", "shares-v2"]),
      placeFeeBps: z.literal(0),
      routerTakerFeeBps: bps,
      operatorBatchFeeBps: bps,
      winningsExitFeeBps: bps,
    }),
    note: z.string().optional(),
    notes: z.array(z.string()).optional(),
  }),
  mcpTool: "svc_get_fees",
  errors: ["SERVICE_UNAVAILABLE"],
  async handler(_ctx, _input, call) {
    const f = await call.services.creation.fees.read();
    return {
      chainId: f.chainId,
      lmsr: f.lmsr,
      orderbook: f.orderbook,
      note: f.source.blockNumber
        ? `Read live from the factories' fee defaults at block ${f.source.blockNumber}. Existing markets keep the rates stamped on them: read a market's tradingRules.`
        : "No factory is deployed on this chain yet: these are the defaults the deployment sets. Existing markets keep the rates stamped on them.",
      notes: [
        "The taker fee applies identically to wallet-router market orders and operator-matched signed limit fills.",
        "notional-v1 charges takerFeeBps of the fill's notional; shares-v2 charges it of the filled shares.",
        ...(f.source.lmsrFactory
          ? [`LMSR defaults: factory ${f.source.lmsrFactory}; order-book defaults: factory ${f.source.orderbookFactory ?? "not deployed"}.`]
          : []),
      ],
    };
  },
});
