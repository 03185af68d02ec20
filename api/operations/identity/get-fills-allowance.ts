import { defineOperation, KEY_READ_ACCESS } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { agentOf, fillsOf } from "./me-view";
import { fillAllowanceSchema } from "../../domain/fills/allowance-schema";

/** GET /fills/allowance: the agent's free and purchased fills (spec "Fill allowance"). */
export const getFillAllowance = defineOperation({
  id: "getFillAllowance",
  method: "GET",
  path: "/fills/allowance",
  summary: "Fill allowance of the calling agent's wallet",
  category: "identity",
  ...KEY_READ_ACCESS,
  request: {},
  response: fillAllowanceSchema,
  errors: ["AGENT_NOT_FOUND", "WALLET_REQUIRED"],
  mcpTool: "svc_get_fill_allowance",
  async handler(ctx, _input, call) {
    const fills = await fillsOf(ctx, call, await agentOf(ctx, call.principal));
    if (!fills) throw new ApiError("WALLET_REQUIRED", "fill allowances belong to wallets: bind one with POST /agents/me/bind-wallet");
    return fills;
  },
});
