import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { buildContracts } from "../../domain/protocol/chains";
import { currentDeployment } from "../../domain/markets/venue-documents";
import { chainIdQuery, PUBLIC_READ } from "./common";

const fn = z.object({ signature: z.string(), selector: z.string() });

/** GET /discover/contracts: per chain, collaterals with their routers, factories, outcome token, approval recipes. */
export const getContracts = defineOperation({
  id: "getContracts",
  method: "GET",
  path: "/discover/contracts",
  summary: "Contract addresses, router interface and approval recipes",
  ...PUBLIC_READ,
  request: { query: z.strictObject({ chainId: chainIdQuery.optional(), collateral: z.string().min(1).max(42).optional() }) },
  response: z.object({
    chains: z.array(
      z.object({
        chainId: z.number().int(),
        name: z.string(),
        stable: z.boolean(),
        collaterals: z.array(
          z.object({
            symbol: z.string(),
            token: z.string(),
            router: z.string(),
            decimals: z.number().int().optional(),
            role: z.string().min(1).max(32),
            capabilities: z.object({ trading: z.boolean(), creation: z.boolean() }),
          }),
        ),
        outcomeToken: z.string().nullable(),
        factories: z.object({ binary: z.string().nullable(), ternary: z.string().nullable(), orderbook: z.string().nullable() }),
        committedLedger: z.string().nullable(),
        routerInterface: z
          .object({ abiVersion: z.string(), runtimeCodeHash: z.string(), functions: z.object({ executeTradeIntent: fn, executeBasketIntent: fn }) })
          .nullable(),
        approvals: z.array(
          z.looseObject({
            kind: z.string(),
            reason: z.string(),
            chainId: z.number().int(),
            token: z.string(),
            spender: z.string(),
            amount: z.string().optional(),
          }),
        ),
      }),
    ),
  }),
  mcpTool: "svc_get_contracts",
  async handler(ctx, { query }) {
    if (query.chainId !== undefined && query.chainId !== ctx.config.CHAIN_ID) return { chains: [] };
    return buildContracts(currentDeployment(ctx.config), { collateral: query.collateral });
  },
});
