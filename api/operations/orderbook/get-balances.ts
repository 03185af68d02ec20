import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { READ, venueAndAccount } from "./common";
import { balanceSchema } from "./schemas";
import { balanceOf } from "./serialize";

/** GET /orderbook/balances: the agent's committed-lane balances: PM and outcome tokens, with what resting orders lock. */
export const getBalances = defineOperation({
  id: "getBalances",
  method: "GET",
  path: "/orderbook/balances",
  summary: "The agent's committed-lane balances (PM and outcome tokens): total, reserved by resting orders, available",
  description: "From the live engine; PM first. available = total - reserved is what a new order can use. See docs/trading.md.",
  ...READ,
  errors: ["SERVICE_UNAVAILABLE"],
  request: {},
  response: z.object({ account: z.string().describe("the agent's ledger account"), balances: z.array(balanceSchema) }),
  mcpTool: "svc_get_balances",
  async handler(_ctx, _input, call) {
    const { venue, account } = await venueAndAccount(call.services, call.principal);
    return { account, balances: venue.exchange.engine.balances(account).map(balanceOf) };
  },
});
