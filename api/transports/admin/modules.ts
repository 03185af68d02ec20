/**
 * Every admin route module, mounted in this order under /admin/v1 (docs/admin.md). Add yours here: one line, one file.
 */
import type { AdminRouteModule } from "./define";
import { agentRoutes } from "./agents";
import { mailRoutes } from "./mail";
import { statusRoutes } from "./status";
import { timeRoutes } from "./time";
import { creatorRoutes } from "./creators";
import { councilRoutes } from "./council";
import { usdcRoutes } from "./usdc";
import { identityRoutes } from "./identities";

export const ADMIN_MODULES: readonly AdminRouteModule[] = [
  statusRoutes,
  agentRoutes,
  mailRoutes,
  timeRoutes,
  creatorRoutes,
  usdcRoutes,
  councilRoutes,
  identityRoutes,
];
