import { z } from "zod";
import type { Hex } from "viem";
import { defineOperation, TRADE_EXECUTE_ACCESS } from "../../registry/types";
import { submittedIntentSchema } from "../../domain/trading/trade-answers";

/**
 * POST /trade/submit: the agent's signature over a prepared intent; the service relays executeTradeIntent with the
 * operator key and answers after the receipt. The router re-checks signature, nonce, deadline and limit.
 */
export const submitTrade = defineOperation({
  id: "submitTrade",
  method: "POST",
  path: "/trade/submit",
  summary: "Submit a signed trade intent; the service relays it to the router",
  category: "trading",
  ...TRADE_EXECUTE_ACCESS,
  errors: ["NOT_FOUND", "CONFLICT", "SERVICE_UNAVAILABLE"],
  request: { body: z.strictObject({ digest: z.string().regex(/^0x[0-9a-fA-F]{64}$/), signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/) }) },
  response: submittedIntentSchema,
  mcpTool: "svc_submit_trade",
  async handler(_ctx, { body }, call) {
    return call.services.trading.submit(body.digest, body.signature as Hex, call.principal.agentId);
  },
});
