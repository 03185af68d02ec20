import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { X402_VERSION } from "../../domain/pm/x402/headers";
import { networkOf } from "../../domain/pm/x402/exact-evm";
import { bundleView, PM_BUNDLES, PM_PER_FILL } from "../../domain/pm/bundles";
import { pmBundlesResponse } from "./schemas";

/** GET /pm/bundles: the fixed PM bundles and how they are paid (docs/pm-purchase.md). */
export const listPmBundles = defineOperation({
  id: "listPmBundles",
  method: "GET",
  path: "/pm/bundles",
  summary: "PM bundles for sale over x402 (USDC), with their fill credits",
  description: "The only amounts POST /pm/buy accepts. See docs/pm-purchase.md.",
  category: "pm",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: { query: z.strictObject({}) },
  response: pmBundlesResponse,
  mcpTool: "svc_list_pm_bundles",
  async handler(_ctx, _input, call) {
    let payment = null;
    try {
      const rt = call.services.x402();
      payment = {
        protocol: "x402" as const,
        x402Version: X402_VERSION,
        scheme: "exact" as const,
        network: networkOf(rt.chainId),
        asset: rt.asset,
        payTo: rt.payTo,
        decimals: 6,
      };
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "SERVICE_UNAVAILABLE")) throw err;
    }
    return { pmPerFill: PM_PER_FILL, bundles: PM_BUNDLES.map(bundleView), payment };
  },
});
