import { z } from "zod";
import { linkedCount, UNLINK_MAX, unlinkWallets } from "../../domain/identity/links";
import { defineOperation } from "../../registry/types";
import { actorOf, address, capFields, capOf, LINKING_WRITE, walletInput } from "./common";

/** POST /identity/unlink: the root unlinks members (a member may unlink itself), at most 49 per call. */
export const unlinkIdentityWallets = defineOperation({
  id: "unlinkIdentityWallets",
  method: "POST",
  path: "/identity/unlink",
  summary: `Unlink wallets from the identity (1..${UNLINK_MAX} per call); each gets its own result`,
  description:
    "The root may unlink any member but itself; a member only itself. Results in request order: unlinked, not_a_member, is_root, not_permitted. See docs/identity.md.",
  ...LINKING_WRITE,
  errors: ["CONFLICT"],
  request: {
    body: z.strictObject({
      walletAddresses: z
        .array(walletInput)
        .min(1)
        .max(UNLINK_MAX)
        .refine((ws) => new Set(ws).size === ws.length, "walletAddresses must not repeat"),
    }),
  },
  response: z.object({
    identityId: z.uuid(),
    results: z.array(z.object({ walletAddress: address, status: z.enum(["unlinked", "not_a_member", "is_root", "not_permitted"]) })),
    ...capFields,
  }),
  mcpTool: "svc_unlink_identity_wallets",
  async handler(ctx, { body }, call) {
    const actor = await actorOf(ctx, call.principal);
    return ctx.db.transaction(async (tx) => {
      const { identityId, results } = await unlinkWallets(tx, actor, body.walletAddresses);
      return { identityId, results, ...capOf(await linkedCount(tx, identityId)) };
    });
  },
});
