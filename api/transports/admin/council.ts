/**
 * The resolution council, appointed by the operator (docs/resolution.md "Council"):
 *   GET /admin/v1/council                      -> {members}
 *   PUT /admin/v1/council  {members: address[]} -> {members}  (replaces the council; a journaled setCouncil command)
 * Members are wallets; each council act they sign (EIP-712) is checked against this set by the engine.
 */
import { z } from "zod";
import type { Address } from "viem";
import { accepted } from "../../platform/errors/engine-rejection";
import { adminBody, adminJson, defineAdminRoutes } from "./define";

const body = z.strictObject({
  members: z
    .array(
      z
        .string()
        .regex(/^0x[0-9a-fA-F]{40}$/, "must be 0x + 40 hex digits")
        .transform((a) => a.toLowerCase() as Address),
    )
    .max(1000),
});

export const councilRoutes = defineAdminRoutes({
  name: "council",
  mount(r, { services }) {
    r.get("/council", (c) => adminJson(c, { members: services.venue.exchange.engine.council() }));
    r.put("/council", async (c) => {
      const { members } = await adminBody(c, body);
      const applied = accepted(await services.venue.exchange.submit({ type: "setCouncil", members }));
      return adminJson(c, { members: applied.result.members });
    });
  },
});
