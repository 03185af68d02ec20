import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { invalidPayload } from "../../platform/errors/invalid-payload";
import { buildMarketStates, MARKET_STATES } from "../../domain/protocol/market-states";
import { chainIdQuery, evmAddress, PUBLIC_READ, requireMarket } from "./common";

const transition = z.object({ from: z.enum(MARKET_STATES), to: z.enum(MARKET_STATES), by: z.string(), condition: z.string() });

/** GET /discover/market-states: the canonical state graph; with marketAddress, that market's state and next steps. */
export const getMarketStates = defineOperation({
  id: "getMarketStates",
  method: "GET",
  path: "/discover/market-states",
  summary: "Canonical market-state graph",
  ...PUBLIC_READ,
  errors: ["MARKET_NOT_FOUND"],
  request: { query: z.strictObject({ marketAddress: evmAddress.optional(), chainId: chainIdQuery.optional() }) },
  response: z.object({
    states: z.array(z.enum(MARKET_STATES)),
    terminal: z.array(z.enum(MARKET_STATES)),
    transitions: z.array(transition),
    market: z
      .object({ address: z.string(), chainId: z.number().int(), state: z.enum(MARKET_STATES), next: z.array(transition.omit({ from: true })) })
      .optional(),
  }),
  mcpTool: "svc_get_market_states",
  async handler(ctx, { query }, call) {
    // The spec makes marketAddress required in the MCP tool (REST serves the bare graph without it).
    if (call.surface === "mcp" && !query.marketAddress)
      throw invalidPayload([{ location: "query", field: "marketAddress", message: "required in svc_get_market_states" }]);
    const m = query.marketAddress ? await requireMarket(ctx, query.marketAddress, query.chainId) : null;
    const doc = buildMarketStates(m ? { address: m.address, chainId: m.chainId, state: m.state } : undefined);
    return { ...doc, states: [...doc.states], transitions: [...doc.transitions] };
  },
});
