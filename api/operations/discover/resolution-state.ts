import { z } from "zod";
import type { Address } from "viem";
import { defineOperation } from "../../registry/types";
import { actionSchema, availableActions, effectiveState } from "../../domain/lifecycle/actions";
import { resolutionGates } from "../../domain/lifecycle/gates";
import { isCouncilMember, lifecycleOut, lifecycleSchema, marketLifecycleAt } from "../../domain/lifecycle/market-lifecycle";
import { VOTE_STAKE_UNITS } from "../../../relayer/lifecycle";
import { addressParams, marketChainQuery, PUBLIC_READ } from "./common";

/**
 * GET /discover/markets/{address}/resolution-state: the market's lifecycle (state, every deadline, proposal, challenge,
 * the vote's ballot count, bonds) and the actions the caller can take now. Public; with a key, `availableActions`
 * say what this caller may do (creator, keeper, voter, council member).
 */
export const getResolutionState = defineOperation({
  id: "getResolutionState",
  method: "GET",
  path: "/discover/markets/{address}/resolution-state",
  summary: "A market's resolution state, deadlines and the actions available to the caller",
  description:
    "Ballots stay sealed until the vote's endsAt (only their count shows). `effectiveState` counts clock transitions due at `now` that the journal records with the next command. See docs/resolution.md.",
  ...PUBLIC_READ,
  errors: ["MARKET_NOT_FOUND"],
  request: { params: addressParams, query: marketChainQuery },
  response: lifecycleSchema.extend({
    now: z.string(),
    effectiveState: z.string(),
    stake: z.object({ amount: z.string(), symbol: z.literal("PM") }).describe("economy.voting.unverifiedStakePm"),
    caller: z.object({ account: z.string(), wallet: z.string().nullable(), isCreator: z.boolean(), isCouncilMember: z.boolean() }).nullable(),
    availableActions: z.array(actionSchema),
  }),
  mcpTool: "svc_get_resolution_state",
  async handler(ctx, { params, query }, call) {
    const engine = call.services.venue.exchange.engine;
    const mw = await marketLifecycleAt(ctx, engine, params.address, query.chainId);
    const now = ctx.clock.now();
    const p = call.principal;
    const account = p ? await call.services.venue.accountOf(p) : null;
    const wallet = (p?.walletAddress?.toLowerCase() as Address | undefined) ?? null;
    const councilMember = isCouncilMember(engine, wallet) || isCouncilMember(engine, account);
    const gates = await resolutionGates(ctx, p);
    return {
      ...lifecycleOut(mw),
      now: new Date(now).toISOString(),
      effectiveState: effectiveState(mw.lifecycle, now),
      stake: { amount: VOTE_STAKE_UNITS.toString(), symbol: "PM" as const },
      caller: account ? { account, wallet, isCreator: account === mw.lifecycle.creator.toLowerCase(), isCouncilMember: councilMember } : null,
      availableActions: availableActions(mw.lifecycle, now, { account, wallet, councilMember, gates }, VOTE_STAKE_UNITS),
    };
  },
});
