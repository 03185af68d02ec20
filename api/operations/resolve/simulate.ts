import { z } from "zod";
import type { Address } from "viem";
import { defineOperation, KEY_READ_ACCESS } from "../../registry/types";
import { actionSchema, availableActions, effectiveState } from "../../domain/lifecycle/actions";
import { resolutionGates } from "../../domain/lifecycle/gates";
import { isCouncilMember, lifecycleOut, lifecycleSchema } from "../../domain/lifecycle/market-lifecycle";
import { VOTE_STAKE_UNITS } from "../../../relayer/lifecycle";
import { lifecycleTarget, marketRef } from "./common";

const SIMULATED = ["propose", "challenge", "declareMia", "vote", "councilDecide", "councilRestart"] as const;

/**
 * POST /resolve/simulate: would this resolution act succeed now, for this caller, and what would it lock? The same
 * rule as resolution-state's availableActions (the engine's guards read ahead); it submits nothing. REST-only.
 */
export const simulateResolution = defineOperation({
  id: "simulateResolution",
  method: "POST",
  path: "/resolve/simulate",
  summary: "Feasibility preview of a resolution act (propose, challenge, declare MIA, vote, council); submits nothing",
  category: "resolution",
  ...KEY_READ_ACCESS,
  errors: ["MARKET_NOT_FOUND"],
  request: { body: z.strictObject({ ...marketRef, action: z.enum(SIMULATED) }) },
  response: z.object({
    action: z.enum(SIMULATED),
    feasible: z.boolean(),
    reason: z.string().nullable().describe("when not feasible: the problem code (or CONFLICT reason) the act would answer now"),
    detail: actionSchema.nullable().describe("the action as resolution-state lists it; null when the market's stage does not open it"),
    market: lifecycleSchema.extend({ effectiveState: z.string() }),
  }),
  mcpTool: null,
  async handler(ctx, { body }, call) {
    const target = await lifecycleTarget(ctx, call.services, body);
    const now = ctx.clock.now();
    const account = await call.services.venue.accountOf(call.principal);
    const wallet = (call.principal.walletAddress?.toLowerCase() as Address | undefined) ?? null;
    const engine = call.services.venue.exchange.engine;
    const councilMember = isCouncilMember(engine, wallet) || isCouncilMember(engine, account);
    const gates = await resolutionGates(ctx, call.principal);
    const detail =
      availableActions(target.lifecycle, now, { account, wallet, councilMember, gates }, VOTE_STAKE_UNITS).find((a) => a.action === body.action) ?? null;
    const state = effectiveState(target.lifecycle, now);
    return {
      action: body.action,
      feasible: detail?.allowed ?? false,
      reason: detail ? (detail.reason ?? null) : "WRONG_MARKET_STATE",
      detail,
      market: { ...lifecycleOut(target), effectiveState: state },
    };
  },
});
