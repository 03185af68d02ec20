import { z } from "zod";
import type { Address, Hex } from "viem";
import { defineOperation, TRADE_EXECUTE_ACCESS } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { claimIntent, loadIntent, markIntent } from "./intent-store";
import { relayIntent, signatureMatches } from "./onchain-lane";

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
  response: z.object({ digest: z.string(), status: z.enum(["submitted", "failed"]), txHash: z.string().nullable(), blockNumber: z.number().int().nullable(), error: z.string().nullable() }),
  mcpTool: "svc_submit_trade",
  async handler(ctx, { body }, call) {
    const stored = await loadIntent(ctx.db, body.digest);
    if (!stored || stored.agentId !== call.principal.agentId) throw new ApiError("NOT_FOUND", `no intent ${body.digest} of this agent`);
    if (stored.expiresAt <= ctx.clock.now()) throw new ApiError("CONFLICT", "the intent's deadline has passed: prepare a new one", { reason: "expired" });
    if (!(await signatureMatches(ctx, stored.router as Address, stored.intent, body.signature as Hex))) {
      throw new ApiError("INVALID_PAYLOAD", "the signature is not the trader's over this intent", { field: "signature" });
    }
    if (!(await claimIntent(ctx.db, stored.digest))) throw new ApiError("CONFLICT", `intent ${stored.digest} is already ${stored.status}`, { reason: "already_submitted" });
    try {
      const r = await relayIntent(call.services.trading.onchain, stored.router as Address, stored.intent, body.signature as Hex);
      const failed = r.status !== "success";
      await markIntent(ctx.db, stored.digest, failed ? "failed" : "executed", r.txHash, failed ? "reverted" : null);
      return { digest: stored.digest, status: failed ? ("failed" as const) : ("submitted" as const), txHash: r.txHash, blockNumber: Number(r.blockNumber), error: failed ? "reverted" : null };
    } catch (err) {
      const msg = (err as { shortMessage?: string }).shortMessage ?? (err as Error).message;
      await markIntent(ctx.db, stored.digest, "failed", null, msg.slice(0, 500));
      return { digest: stored.digest, status: "failed" as const, txHash: null, blockNumber: null, error: msg.slice(0, 500) };
    }
  },
});
