/**
 * The actions a caller can take on a market's lifecycle now (GET .../resolution-state `availableActions`, POST
 * /resolve/simulate): the market's stage opens some actions, and for each the caller's role, the stage's deadline and
 * the reputation gate decide `allowed`, with the problem code the call would get otherwise. The engine's guards
 * remain the authority when the call is made; this is the same rule read ahead.
 */
import { z } from "zod";
import type { Address } from "viem";
import type { LifecycleView } from "../../../relayer/engine";

export const ACTIONS = ["propose", "challenge", "declareMia", "vote", "councilDecide", "councilRestart", "claim", "collectCreatorFunds"] as const;
export type Action = (typeof ACTIONS)[number];

export const ACTION_PATHS: Readonly<Record<Action, string>> = {
  propose: "/resolve/propose",
  challenge: "/resolve/challenge",
  declareMia: "/resolve/declare-mia",
  vote: "/resolve/vote",
  councilDecide: "/resolve/council",
  councilRestart: "/resolve/council",
  claim: "/claims/batch",
  collectCreatorFunds: "/trade/creator-funds/collect",
};

export const actionSchema = z.object({
  action: z.enum(ACTIONS),
  method: z.literal("POST"),
  path: z.string(),
  allowed: z.boolean().describe("the caller may take it now"),
  reason: z.string().nullable().describe("when not allowed: the problem code (or reason) the call would answer"),
  until: z.string().nullable().describe("the deadline of the action's window"),
  cost: z
    .object({ amount: z.string(), symbol: z.literal("PM"), kind: z.enum(["bond", "stake"]) })
    .nullable()
    .describe("PM the action locks"),
});
export type ActionView = z.input<typeof actionSchema>;

/** What the rule needs to know about the caller (null fields: no key, or no wallet). */
export interface Caller {
  account: Address | null;
  wallet: Address | null;
  councilMember: boolean;
  gates: { canChallenge: boolean; canVote: boolean };
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
const same = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

/** The state the market is in at `now`, counting transitions the clock owes but has not journaled yet. */
export function effectiveState(l: LifecycleView, now: number): LifecycleView["state"] {
  if (l.state === "open" && now >= l.closeTime) return l.proposal === null && now > l.creatorResolveBy ? "creator_mia" : "closed";
  if (l.state === "closed" && now > l.creatorResolveBy) return "creator_mia";
  return l.state;
}

/** Every action the market's stage opens, with whether `caller` may take it at `now`. */
export function availableActions(l: LifecycleView, now: number, caller: Caller, stakePm: bigint): ActionView[] {
  const out: ActionView[] = [];
  const add = (action: Action, reason: string | null, until: number | null, cost: ActionView["cost"] = null) =>
    out.push({ action, method: "POST", path: ACTION_PATHS[action], allowed: reason === null, reason, until: iso(until), cost });
  const noKey = caller.account === null ? "AUTH_REQUIRED" : null;
  const state = effectiveState(l, now);
  const final = state === "resolved" || state === "void";

  if ((state === "open" || state === "closed") && l.proposal === null) {
    const reason =
      noKey ??
      (!same(caller.account, l.creator)
        ? "NOT_CREATOR"
        : now < l.openTime
          ? "CREATOR_WINDOW_NOT_OPEN"
          : now > l.creatorResolveBy
            ? "CREATOR_WINDOW_ELAPSED"
            : null);
    add("propose", reason, l.creatorResolveBy);
  }
  if (state === "creator_proposal" && l.challenger === null && l.challengeBy !== null) {
    const reason = noKey ?? (now >= l.challengeBy ? "CHALLENGE_WINDOW_CLOSED" : !caller.gates.canChallenge ? "FORBIDDEN" : null);
    add("challenge", reason, l.challengeBy, { amount: l.bonds.creation.toString(), symbol: "PM", kind: "bond" });
  }
  if (state === "creator_mia") {
    const until = l.keeperWindowEndsAt;
    const reason = noKey ?? (same(caller.account, l.creator) ? "CREATOR_NOT_ELIGIBLE" : until !== null && now >= until ? "KEEPER_WINDOW_CLOSED" : null);
    add("declareMia", reason, until);
  }
  if (state === "human_voting" && l.vote !== null) {
    const reason = noKey ?? (now >= l.vote.endsAt ? "VOTE_NOT_OPEN" : !caller.gates.canVote ? "FORBIDDEN" : null);
    add("vote", reason, l.vote.endsAt, { amount: stakePm.toString(), symbol: "PM", kind: "stake" });
  }
  if (state === "human_voting" || state === "council_review") {
    const tooEarly = state === "human_voting" || (l.vote !== null && now < l.vote.endsAt);
    const closed = l.councilReviewEndsAt !== null && now >= l.councilReviewEndsAt;
    const reason = tooEarly ? "COUNCIL_NOT_OPEN" : closed ? "COUNCIL_NOT_OPEN" : !caller.councilMember ? "NOT_COUNCIL_MEMBER" : null;
    add("councilDecide", reason, l.councilReviewEndsAt);
    add("councilRestart", reason, l.councilReviewEndsAt);
  }
  if (final) {
    add("claim", noKey, null);
    add("collectCreatorFunds", noKey ?? (same(caller.account, l.creator) ? null : "NOT_CREATOR"), null);
  }
  return out;
}
