/** GET /admin/v1/status: what the admin CLI probes to find the running service, and what it is running on. */
import { chainKind, isLocalChain } from "../../../relayer/local-chain";
import { adminJson, defineAdminRoutes } from "./define";

export const statusRoutes = defineAdminRoutes({
  name: "status",
  mount(r, { ctx, mounted }) {
    r.get("/status", (c) => {
      const kind = chainKind(ctx.config);
      return adminJson(c, {
        service: "agent-prediction-market",
        now: ctx.clock.now(),
        chain: { chainId: ctx.config.CHAIN_ID, rpcUrl: ctx.config.rpcUrl, kind, local: isLocalChain(ctx.config) },
        storage: ctx.config.storage,
        modules: mounted,
      });
    });
  },
});
