import { z } from "zod";
import type { Address } from "viem";
import { defineOperation } from "../../registry/types";
import { buildTokenRelease } from "../../domain/protocol/chains";
import { currentDeployment } from "../../domain/markets/venue-documents";
import { PUBLIC_READ } from "./common";

/** GET /discover/token-release: PM's release record, with its on-chain totalSupply when the chain answers. */
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
    token: z.object({
      name: z.string(),
      symbol: z.string(),
      decimals: z.number().int().min(0).max(30),
      totalSupplyWei: z.string().regex(/^\d+$/).describe("PM minted as the ERC-20 on chain (base units); not the play money held in the committed ledger"),
      totalSupplyReadAt: z.string().nullable().describe("ISO instant of the chain read; null = not read yet (chain unreachable), totalSupplyWei is then 0"),
      logoPath: z.string(),
      disclaimer: z.string().nullable(),
    }),
    origin: z
      .looseObject({
        chainId: z.number().int(),
        address: z.string(),
        fromBlock: z.number().int(),
        deploymentTxHash: z.string().nullable(),
        deploymentBlockHash: z.string().nullable(),
        runtimeCodeHash: z.string().nullable(),
      })
      .nullable(),
    representations: z.array(z.looseObject({})),
    distributors: z.array(z.looseObject({})),
  }),
  mcpTool: "svc_get_token_release",
  async handler(ctx, _input, call) {
    const d = currentDeployment(ctx.config);
    const pm = d.contracts.PlayMoney;
    return buildTokenRelease(d, pm ? await call.services.tokenSupply.read(pm.address as Address) : undefined);
  },
});
