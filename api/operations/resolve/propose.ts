import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { answerOf, lifecycleAnswer, lifecycleTarget, marketRef, outcomeOrVoid, RESOLVE_ERRORS, RESOLVE_WRITE, submitLifecycle } from "./common";

/**
 * POST /resolve/propose: the market's creator proposes its outcome (or "void") from openTime to creatorResolveBy.
 * After the window: 409 CREATOR_WINDOW_ELAPSED. The market moves to creator_proposal and challengeBy is set.
 */
export const proposeOutcome = defineOperation({
  id: "proposeOutcome",
  method: "POST",
  path: "/resolve/propose",
  summary: "Creator: propose the market's outcome (or void) from openTime to creatorResolveBy",
  description:
    "Only the market's creator. Trading stops (resting orders cancelled). Refused 409 CREATOR_WINDOW_ELAPSED after creatorResolveBy. See docs/resolution.md.",
  ...RESOLVE_WRITE,
  errors: [...RESOLVE_ERRORS, "CREATOR_WINDOW_ELAPSED"],
  request: { body: z.strictObject({ ...marketRef, outcome: outcomeOrVoid.describe('an outcome index, or "void"') }) },
  response: lifecycleAnswer,
  mcpTool: "svc_propose_outcome",
  async handler(ctx, { body }, call) {
    const target = await lifecycleTarget(ctx, call.services, body);
    const account = await call.services.venue.accountOf(call.principal);
    const r = await submitLifecycle(call.services, { type: "proposeOutcome", account, marketId: target.marketId, outcome: body.outcome });
    return answerOf(target, r.result);
  },
});
