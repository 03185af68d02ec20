import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Hex } from "viem";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { resolutionGates } from "../../domain/lifecycle/gates";
import { VOTE_STAKE_UNITS } from "../../../relayer/lifecycle";
import { fellowVoterAccounts } from "../../domain/identity/links";
import { KeyedQueue } from "../../platform/concurrency/keyed-queue";
import { answerOf, lifecycleAnswer, lifecycleTarget, marketRef, RESOLVE_ERRORS, RESOLVE_WRITE, submitLifecycle } from "./common";

/**
 * POST /resolve/vote: one staked ballot per voter and session while the human vote is open. The stake
 * (economy.voting.unverifiedStakePm) is locked from the caller's PM with the ballot's public commitment (STAKE_LOCK);
 * the outcome stays sealed in the service until the deadline, when it is revealed (BALLOT_REVEAL) and checked
 * against the commitment by anyone who replays the journal. A verified identity (docs/identity.md) casts one ballot per
 * session, whichever of its members casts it: its members' ballots are checked and cast one at a time.
 */
const identityBallots = new KeyedQueue();

export const castBallot = defineOperation({
  id: "castBallot",
  method: "POST",
  path: "/resolve/vote",
  summary: "Cast one staked, sealed ballot in the market's human vote",
  description:
    'Gate: reputation canVote. Stake: economy.voting.unverifiedStakePm PM (409 INSUFFICIENT_BALANCE when short). A second ballot: 409 CONFLICT reason ALREADY_VOTED; another member of the caller\'s verified identity voted in the session: 409 CONFLICT reason IDENTITY_ALREADY_VOTED; no open session: 409 CONFLICT reason VOTE_NOT_OPEN. See docs/resolution.md "Ballots".',
  ...RESOLVE_WRITE,
  errors: [...RESOLVE_ERRORS],
  request: { body: z.strictObject({ ...marketRef, outcome: z.number().int().min(0).max(254).describe("the outcome index voted") }) },
  response: lifecycleAnswer.extend({
    ballot: z.object({
      session: z.number().int(),
      stake: z.string().describe("PM units locked"),
      commitment: z.string().describe("the ballot's public commitment (STAKE_LOCK ballotHash); its reveal at the deadline must match it"),
      revealAt: z.string(),
    }),
  }),
  mcpTool: "svc_cast_ballot",
  async handler(ctx, { body }, call) {
    const target = await lifecycleTarget(ctx, call.services, body);
    const account = await call.services.venue.accountOf(call.principal);
    const gates = await resolutionGates(ctx, call.principal);
    if (!gates.canVote) throw new ApiError("FORBIDDEN", "your reputation tier does not open voting (GET /discover/reputation)", { reason: "VOTE_GATE" });
    const salt = `0x${randomBytes(32).toString("hex")}` as Hex;
    const cast = () => submitLifecycle(call.services, { type: "castBallot", account, marketId: target.marketId, outcome: body.outcome, salt });
    const fellows = await fellowVoterAccounts(ctx.db, call.principal.agentId);
    const r = !fellows
      ? await cast()
      : await identityBallots.run(fellows.identityId, async () => {
          const voters = call.services.venue.exchange.engine.sessionVoters(target.marketId);
          if (voters.some((v) => fellows.accounts.has(v.toLowerCase())))
            throw new ApiError("CONFLICT", "another wallet of your verified identity already voted in this session: one vote per identity", {
              reason: "IDENTITY_ALREADY_VOTED",
            });
          return cast();
        });
    const lock = r.ops.find((o) => o.type === "STAKE_LOCK");
    const vote = r.result.lifecycle.vote!;
    return {
      ...answerOf(target, r.result),
      ballot: {
        session: vote.session,
        stake: (lock && lock.type === "STAKE_LOCK" ? lock.amount : VOTE_STAKE_UNITS).toString(),
        commitment: lock && lock.type === "STAKE_LOCK" ? lock.ballotHash : "",
        revealAt: new Date(vote.endsAt).toISOString(),
      },
    };
  },
});
