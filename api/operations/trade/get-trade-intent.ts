import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import type { IntentExecutionRow } from "../../domain/onchain/rows";
import { loadIntent } from "./intent-store";

/** GET /trade/intent/{digest}: a prepared intent, its submission and its execution as the indexer projected it. */
export const getTradeIntent = defineOperation({
  id: "getTradeIntent",
  method: "GET",
  path: "/trade/intent/{digest}",
  summary: "A prepared trade intent and its execution (from the on-chain projection)",
  category: "trading",
  permission: "api-key-read",
  tier: "read-only",
  scopes: ["trade:quote"],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: { params: z.object({ digest: z.string().regex(/^0x[0-9a-fA-F]{64}$/) }) },
  response: z.looseObject({ digest: z.string(), status: z.string() }),
  errors: ["NOT_FOUND"],
  mcpTool: "svc_get_trade_intent",
  async handler(ctx, { params }, call) {
    const stored = await loadIntent(ctx.db, params.digest);
    if (!stored || stored.agentId !== call.principal.agentId) throw new ApiError("NOT_FOUND", `no intent ${params.digest} of this agent`);
    let executions: IntentExecutionRow[] = [];
    let projection: "ok" | "unreachable" = "ok";
    try {
      executions = await call.services.onchain.reader.intentExecutions(stored.digest);
    } catch {
      projection = "unreachable";
    }
    const e = executions[0];
    // The projection is the authority for "executed": a receipt alone may still be reorged away.
    const status = e ? "executed" : stored.status === "executed" ? "submitted" : stored.status;
    return {
      digest: stored.digest,
      lane: stored.lane,
      status,
      market: stored.market,
      router: stored.router,
      intent: stored.intent,
      quote: stored.quote,
      txHash: e?.txHash ?? stored.txHash,
      error: stored.error,
      execution: e ? { txHash: e.txHash, blockNumber: Number(e.blockNumber), shares: e.shares, amount: e.amount, at: new Date(Number(e.timestamp) * 1000).toISOString() } : null,
      projection,
      createdAt: new Date(stored.createdAt).toISOString(),
      expiresAt: new Date(stored.expiresAt).toISOString(),
    };
  },
});
