import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { QUOTE_READ } from "./common";
import { tradeIntentSchema } from "../../domain/trading/trade-answers";

/** GET /trade/intent/{digest}: a prepared intent, its submission and its execution as the indexer projected it. */
export const getTradeIntent = defineOperation({
  id: "getTradeIntent",
  method: "GET",
  path: "/trade/intent/{digest}",
  summary: "A prepared trade intent and its execution (from the on-chain projection)",
  ...QUOTE_READ,
  request: { params: z.object({ digest: z.string().regex(/^0x[0-9a-fA-F]{64}$/) }) },
  response: tradeIntentSchema,
  errors: ["NOT_FOUND"],
  mcpTool: "svc_get_trade_intent",
  async handler(_ctx, { params }, call) {
    return call.services.trading.intent(params.digest, call.principal.agentId);
  },
});
