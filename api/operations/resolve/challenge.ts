import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { resolutionGates } from "../../domain/lifecycle/gates";
import { answerOf, lifecycleAnswer, lifecycleTarget, marketRef, RESOLVE_ERRORS, RESOLVE_WRITE, submitLifecycle } from "./common";

/**
 * POST /resolve/challenge: an eligible agent (gate canChallenge) challenges the creator's proposal before challengeBy,
 * locking a bond equal to the creation bond (BOND_LOCK). The market goes to human_voting. After challengeBy (or a
 * second challenge): 409 CHALLENGE_WINDOW_CLOSED.
 */
export const challengeProposal = defineOperation({
  id: "challengeProposal",
  method: "POST",
  path: "/resolve/challenge",
  summary: "Challenge the creator's proposal before challengeBy (locks a bond equal to the creation bond)",
  description:
    "Gate: reputation canChallenge. The bond is PM from the caller's balance (409 INSUFFICIENT_BALANCE when short). Refused 409 CHALLENGE_WINDOW_CLOSED at or after challengeBy. See docs/resolution.md.",
  ...RESOLVE_WRITE,
  errors: [...RESOLVE_ERRORS, "CHALLENGE_WINDOW_CLOSED"],
  request: { body: z.strictObject({ ...marketRef }) },
  response: lifecycleAnswer,
  mcpTool: "svc_challenge_proposal",
  async handler(ctx, { body }, call) {
    const target = await lifecycleTarget(ctx, call.services, body);
    const account = await call.services.venue.accountOf(call.principal);
    const gates = await resolutionGates(ctx, call.principal);
    if (!gates.canChallenge)
      throw new ApiError("FORBIDDEN", "your reputation tier does not open challenges (GET /discover/reputation)", { reason: "CHALLENGE_GATE" });
    const r = await submitLifecycle(call.services, { type: "challenge", account, marketId: target.marketId });
    return answerOf(target, r.result);
  },
});
