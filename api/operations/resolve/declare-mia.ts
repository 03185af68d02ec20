import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { answerOf, lifecycleAnswer, lifecycleTarget, marketRef, RESOLVE_ERRORS, RESOLVE_WRITE, submitLifecycle } from "./common";

/**
 * POST /resolve/declare-mia: a keeper (anyone but the creator) declares a missed creator window during the keeper
 * window: the creation bond is slashed (the keeper's capped share to the caller, the treasury's, the voter pool the
 * rest) and the human vote opens.
 */
export const declareCreatorMia = defineOperation({
  id: "declareCreatorMia",
  method: "POST",
  path: "/resolve/declare-mia",
  summary: "Keeper: declare that the creator missed its window (earns the keeper share of the slashed bond)",
  description:
    "Only while the market is creator_mia and before keeperWindowEndsAt; never the creator (403 FORBIDDEN, reason CREATOR_NOT_ELIGIBLE). See docs/resolution.md.",
  ...RESOLVE_WRITE,
  errors: [...RESOLVE_ERRORS],
  request: { body: z.strictObject({ ...marketRef }) },
  response: lifecycleAnswer,
  mcpTool: "svc_declare_creator_mia",
  async handler(ctx, { body }, call) {
    const target = await lifecycleTarget(ctx, call.services, body);
    const account = await call.services.venue.accountOf(call.principal);
    const r = await submitLifecycle(call.services, { type: "declareMia", account, marketId: target.marketId });
    return answerOf(target, r.result);
  },
});
