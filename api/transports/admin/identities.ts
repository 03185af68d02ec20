/**
 * The operator's verification of identities (docs/identity.md): a verified identity has a human behind it, so GET /me
 * says `identityVerified` for its members and it casts one human vote per session.
 *   PUT    /admin/v1/identities/:wallet/verified   verify the identity whose member this wallet is
 *   DELETE /admin/v1/identities/:wallet/verified   withdraw the verification
 */
import { setIdentityVerified } from "../../domain/identity/links";
import { ApiError } from "../../platform/errors/api-error";
import { adminJson, defineAdminRoutes } from "./define";

export const identityRoutes = defineAdminRoutes({
  name: "identities",
  mount(r, { ctx }) {
    for (const [method, verified] of [
      ["put", true],
      ["delete", false],
    ] as const) {
      r[method]("/identities/:wallet/verified", async (c) => {
        const wallet = c.req.param("wallet").toLowerCase();
        if (!/^0x[0-9a-f]{40}$/.test(wallet))
          throw new ApiError("INVALID_PAYLOAD", `wallet must be an EVM address; got ${JSON.stringify(c.req.param("wallet"))}`, {
            field: "wallet",
            location: "params",
          });
        const identityId = await setIdentityVerified(ctx.db, wallet, verified, ctx.clock.now());
        if (!identityId) throw new ApiError("NOT_FOUND", `the wallet ${wallet} belongs to no identity (its agent makes one with POST /identity/link-code)`);
        return adminJson(c, { identityId, wallet, verified });
      });
    }
  },
});
