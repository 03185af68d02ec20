import { z } from "zod";
import { defineOperation, KEY_READ_ACCESS } from "../../registry/types";
import { creatorStanding, reputationView } from "../../domain/creation/creator-standing";
import { reputationSchema, tierGatesSchema } from "../../domain/creation/schemas";
import { TIER_GATES } from "../../domain/creation/reputation-rules";
import { ledgerAccountFor } from "../../domain/auth/ledger-account";

/**
 * GET /discover/reputation: the calling agent's tier gates and creation capacity (the `reputation` block of GET /me),
 * plus the gates of every creator tier and the rule that picks one (docs/market-creation.md "Reputation").
 */
export const getReputation = defineOperation({
  id: "getReputation",
  method: "GET",
  path: "/discover/reputation",
  summary: "Tier gates and creation capacity of the authenticated agent",
  category: "discovery",
  ...KEY_READ_ACCESS,
  request: { query: z.strictObject({}) },
  response: reputationSchema.extend({
    history: z.object({ created: z.number().int(), resolvedUnchallenged: z.number().int(), overturned: z.number().int() }),
    tierSource: z.enum(["history", "operator"]),
    tiers: z.record(z.string(), tierGatesSchema),
    tierRule: z.string(),
  }),
  mcpTool: "svc_get_reputation",
  async handler(ctx, _input, call) {
    const account = await ledgerAccountFor(ctx, call.principal);
    const s = await creatorStanding(ctx.db, account, ctx.clock.now(), call.services.creation.outcomeOf);
    return {
      ...reputationView(s),
      history: s.history,
      tierSource: s.granted ? ("operator" as const) : ("history" as const),
      tiers: { ...TIER_GATES },
      tierRule:
        "suspended: >= 3 overturned and more overturned than resolved unchallenged; trusted: >= 10 resolved unchallenged, overturned <= 10% of them; established: >= 3 resolved unchallenged, overturned <= 20%; new: otherwise. partner: operator grant only. maxSeed = maxSeedMultiplier x 1,000 collateral units.",
    };
  },
});
