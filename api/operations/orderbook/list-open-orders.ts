import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { READ, venueAndAccount } from "./common";
import { marketField, orderResultSchema } from "./schemas";
import { orderResult } from "./serialize";

/** GET /orderbook/orders: the agent's resting orders (open or partially filled), oldest first. */
export const listOpenOrders = defineOperation({
  id: "listOpenOrders",
  method: "GET",
  path: "/orderbook/orders",
  summary: "The agent's resting orders, optionally in one market",
  description: "Open and partially filled orders of the calling agent, oldest first, from the live engine. See docs/trading.md.",
  ...READ,
  errors: ["MARKET_NOT_FOUND", "SERVICE_UNAVAILABLE"],
  request: { query: z.strictObject({ market: marketField.optional() }) },
  response: z.object({ orders: z.array(orderResultSchema) }),
  mcpTool: "svc_list_open_orders",
  async handler(_ctx, { query }, call) {
    const { venue, account } = await venueAndAccount(call.services, call.principal);
    const marketId = query.market === undefined ? undefined : (await venue.marketAt(query.market)).marketId;
    return { orders: venue.exchange.engine.openOrders(account, marketId).map((v) => orderResult(v)) };
  },
});
