import { z } from "zod";
import { membersOf, membershipOfAgent } from "../../domain/identity/links";
import { REPUTATION_EVENT_KINDS, REPUTATION_ROLES } from "../../domain/ranking/reputation-events";
import { ledgerAccountFor } from "../../domain/auth/ledger-account";
import { catalogAddressesOf } from "../../domain/lifecycle/catalog-ids";
import { defineOperation, KEY_READ_ACCESS } from "../../registry/types";

const address = z.string().regex(/^0x[0-9a-f]{40}$/);

/**
 * GET /agents/me/reputation/events: the spec's "own reputation events" (owner-gated; path ours). The key's own agent
 * reads the events of its wallet, or of every wallet of its linked identity (docs/identity.md), from the journal.
 */
export const listOwnReputationEvents = defineOperation({
  id: "listOwnReputationEvents",
  method: "GET",
  path: "/agents/me/reputation/events",
  summary: "Your reputation events (bonds, ballots, rewards, payouts, your markets' ends), newest first",
  description:
    'From the committed journal. filter=all_linked (default) covers every wallet of your linked identity (docs/identity.md), this_wallet only this agent\'s ledger account. Amounts in PM base units. See docs/leaderboard.md "Reputation events".',
  category: "reputation",
  ...KEY_READ_ACCESS,
  request: {
    query: z.strictObject({
      limit: z.coerce.number().int().min(1).max(100).default(50),
      offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
      filter: z.enum(["all_linked", "this_wallet"]).default("all_linked"),
    }),
  },
  response: z.object({
    filter: z.enum(["all_linked", "this_wallet"]),
    accounts: z.array(address).describe("the ledger accounts read: this agent's first, then its identity's other members'"),
    events: z.array(
      z.object({
        seq: z.number().int().describe("the journal entry that carried it"),
        at: z.string(),
        kind: z.enum(REPUTATION_EVENT_KINDS),
        role: z.enum(REPUTATION_ROLES),
        account: address,
        marketId: z.string(),
        marketAddress: address.nullable(),
        amount: z.string().nullable().describe("PM base units moved, when the event moved any"),
        outcome: z.number().int().nullable(),
        session: z.number().int().nullable(),
        state: z.string().nullable().describe("market_state: the state the market entered"),
      }),
    ),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    hasMore: z.boolean(),
  }),
  mcpTool: "svc_list_own_reputation_events",
  async handler(ctx, { query }, call) {
    const own = await ledgerAccountFor(ctx, call.principal);
    const accounts = [own];
    if (query.filter === "all_linked") {
      const me = await membershipOfAgent(ctx.db, call.principal.agentId);
      if (me) for (const m of await membersOf(ctx.db, me.identityId)) if (m.ledgerAccount.toLowerCase() !== own) accounts.push(m.ledgerAccount.toLowerCase());
    }
    const { events, total } = await call.services.reputationEvents.eventsOf(accounts, query);
    const addresses = await catalogAddressesOf(
      ctx.db,
      ctx.config.CHAIN_ID,
      events.map((e) => e.marketId),
    );
    return {
      filter: query.filter,
      accounts,
      events: events.map((e) => ({
        seq: e.seq,
        at: new Date(e.at).toISOString(),
        kind: e.kind,
        role: e.role,
        account: e.account,
        marketId: e.marketId.toString(),
        marketAddress: addresses.get(e.marketId.toString()) ?? null,
        amount: e.amount === null ? null : e.amount.toString(),
        outcome: e.outcome,
        session: e.session,
        state: e.state,
      })),
      total,
      limit: query.limit,
      offset: query.offset,
      hasMore: query.offset + events.length < total,
    };
  },
});
