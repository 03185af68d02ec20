import { z } from "zod";
import type { Address, Hex } from "viem";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { verifyCouncilSignature } from "../../domain/lifecycle/council";
import { answerOf, lifecycleAnswer, lifecycleTarget, marketRef, outcomeOrVoid, RESOLVE_ERRORS, RESOLVE_WRITE, submitLifecycle } from "./common";

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be 0x + 40 hex digits")
  .transform((a) => a.toLowerCase() as Address);

/**
 * POST /resolve/council: a council member's act after the human vote (decide an outcome, void, or restart the vote
 * for integrity), signed by the member's wallet with EIP-712 (CouncilAct {market, marketId, session, action, outcome};
 * docs/resolution.md "Council"). Any execute key may relay it: the signature decides who acts. Before the vote ends:
 * 409 CONFLICT reason COUNCIL_NOT_OPEN. A signer outside the appointed council: 403 FORBIDDEN reason NOT_COUNCIL_MEMBER.
 */
export const councilAct = defineOperation({
  id: "councilAct",
  method: "POST",
  path: "/resolve/council",
  summary: "Council: decide an outcome, void, or restart the vote (EIP-712 signed by an appointed member)",
  description:
    'The signature and the act are journaled (the public record). GET /discover/markets/{address}/resolution-state shows the session to sign. See docs/resolution.md "Council".',
  ...RESOLVE_WRITE,
  errors: [...RESOLVE_ERRORS],
  request: {
    body: z
      .strictObject({
        ...marketRef,
        action: z.enum(["decide", "restart"]),
        outcome: outcomeOrVoid.optional().describe('decide: an outcome index or "void"; restart: omitted'),
        session: z.number().int().min(1).max(65_535).describe("the vote session the act concerns (resolution-state vote.session)"),
        member: address.describe("the council member's wallet that signed"),
        signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, "a 65-byte signature, 0x + 130 hex digits"),
      })
      .refine((b) => (b.action === "decide") === (b.outcome !== undefined), { message: "decide names an outcome; restart names none", path: ["outcome"] }),
  },
  response: lifecycleAnswer,
  mcpTool: "svc_council_act",
  async handler(ctx, { body }, call) {
    const target = await lifecycleTarget(ctx, call.services, body);
    // With no session yet the engine refuses the act (COUNCIL_NOT_OPEN); a stale session is refused here.
    const session = target.lifecycle.vote?.session ?? body.session;
    if (body.session !== session) {
      throw new ApiError("CONFLICT", `the act names vote session ${body.session}; the market's session is ${session}`, { reason: "STALE_SESSION", session });
    }
    const outcome = body.outcome === undefined ? "" : String(body.outcome);
    await verifyCouncilSignature(
      target.market.chainId,
      { market: target.market.address as Address, marketId: target.marketId, session, action: body.action, outcome },
      body.member,
      body.signature as Hex,
    );
    const r = await submitLifecycle(call.services, {
      type: "councilAct",
      member: body.member,
      marketId: target.marketId,
      action: body.action,
      ...(body.outcome !== undefined ? { outcome: body.outcome } : {}),
      signature: body.signature as Hex,
    });
    return answerOf(target, r.result);
  },
});
