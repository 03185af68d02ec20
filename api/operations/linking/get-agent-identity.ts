import { z } from "zod";
import { membersOf, membershipOfAgent, pendingConsentOfAgent } from "../../domain/identity/links";
import { defineOperation } from "../../registry/types";
import { actorOf, address, capFields, capOf, consentSchema, consentView, iso, LINKING_READ, memberSchema, memberView } from "./common";

/** GET /agents/me/identity: the agent's identity (role, verification, members) and its own pending consent. */
export const getAgentIdentity = defineOperation({
  id: "getAgentIdentity",
  method: "GET",
  path: "/agents/me/identity",
  summary: "The agent's linked identity: its role, whether it is verified, its members, and a pending consent",
  description: "Identity linking: docs/identity.md. `identity` is null until the agent roots one (POST /identity/link-code) or a root approves its consent.",
  ...LINKING_READ,
  request: {},
  response: z.object({
    agentId: z.uuid(),
    walletAddress: address.nullable(),
    identityVerified: z.boolean().describe("the agent's wallet is linked to an identity the operator verified (as GET /me)"),
    identity: z
      .object({
        identityId: z.uuid(),
        role: z.enum(["root", "linked_agent"]),
        verified: z.boolean(),
        verifiedAt: z.string().nullable(),
        createdAt: z.string(),
        root: z.object({ agentId: z.uuid(), walletAddress: address }),
        members: z.array(memberSchema).describe("the root first, then by linking time"),
        ...capFields,
      })
      .nullable(),
    pendingConsent: consentSchema.nullable().describe("this agent's consent waiting for a root's approval"),
  }),
  mcpTool: "svc_get_linked_identity",
  async handler(ctx, _input, call) {
    const actor = await actorOf(ctx, call.principal);
    const now = ctx.clock.now();
    const me = await membershipOfAgent(ctx.db, actor.agentId);
    const pending = await pendingConsentOfAgent(ctx.db, actor.agentId, now);
    let identity = null;
    if (me) {
      const members = await membersOf(ctx.db, me.identityId);
      const root = members.find((m) => m.role === "root")!;
      identity = {
        identityId: me.identityId,
        role: me.role,
        verified: me.verifiedAt !== null,
        verifiedAt: me.verifiedAt === null ? null : iso(me.verifiedAt),
        createdAt: iso(me.createdAt),
        root: { agentId: root.agentId, walletAddress: root.walletAddress },
        members: members.map(memberView),
        ...capOf(members.length - 1),
      };
    }
    return {
      agentId: actor.agentId,
      walletAddress: actor.walletAddress,
      identityVerified: me?.verifiedAt != null,
      identity,
      pendingConsent: pending ? consentView(pending) : null,
    };
  },
});
