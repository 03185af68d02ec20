import { z } from "zod";
import { createLinkCode, LINK_CODE_TTL_MS } from "../../domain/identity/links";
import { defineOperation, Reply } from "../../registry/types";
import { actorOf, iso, LINKING_WRITE } from "./common";

/** POST /identity/link-code: a multi-use code (3 minutes) for child agents to consent with; makes the identity first. */
export const generateLinkCode = defineOperation({
  id: "generateLinkCode",
  method: "POST",
  path: "/identity/link-code",
  summary: "Generate a multi-use link code (3 minutes) that child agents submit to join this agent's identity",
  description:
    "The first code makes the identity, with the caller (which needs a bound wallet) as its root. A linked member may not make codes (403 FORBIDDEN reason NOT_IDENTITY_ROOT). The code is shown once. See docs/identity.md.",
  ...LINKING_WRITE,
  errors: ["WALLET_REQUIRED", "CONFLICT"],
  request: { body: z.strictObject({}).optional() },
  status: 201,
  response: z.object({
    code: z.string().describe("give it to each child agent; it works for any number of them until expiresAt"),
    identityId: z.uuid(),
    expiresAt: z.string(),
    ttlSeconds: z.literal(LINK_CODE_TTL_MS / 1000),
    createdIdentity: z.boolean().describe("true when this call made the identity, with the caller as root"),
  }),
  secretFields: ["code"],
  mcpTool: "svc_generate_link_code",
  async handler(ctx, _input, call) {
    const actor = await actorOf(ctx, call.principal);
    const c = await ctx.db.transaction((tx) => createLinkCode(tx, actor, ctx.clock.now()));
    return new Reply(201, {
      code: c.code,
      identityId: c.identityId,
      expiresAt: iso(c.expiresAt),
      ttlSeconds: LINK_CODE_TTL_MS / 1000,
      createdIdentity: c.createdIdentity,
    });
  },
});
