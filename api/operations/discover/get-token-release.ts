import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { buildTokenRelease } from "../../discovery-docs/chains";
import { currentDeployment } from "../../markets/venue-documents";
import { PUBLIC_READ } from "./common";

/** GET /discover/token-release: PM's release record. */
export const getTokenRelease = defineOperation({
  id: "getTokenRelease",
  method: "GET",
  path: "/discover/token-release",
  summary: "Token release record of PM",
  ...PUBLIC_READ,
  request: { query: z.strictObject({}) },
  response: z.object({
    profileId: z.string(),
    stage: z.string().describe("test or production"),
    deployed: z.boolean(),
    token: z.object({ name: z.string(), symbol: z.string(), decimals: z.number().int().min(0).max(30), totalSupplyWei: z.string(), logoPath: z.string(), disclaimer: z.string().nullable() }),
    origin: z.looseObject({ chainId: z.number().int(), address: z.string() }).nullable(),
    representations: z.array(z.looseObject({})),
    distributors: z.array(z.looseObject({})),
  }),
  mcpTool: "svc_get_token_release",
  async handler(ctx) {
    return buildTokenRelease(currentDeployment(ctx.config));
  },
});
