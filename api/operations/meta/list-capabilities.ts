import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { CURRENT_VERSION } from "../../platform/versioning/versions";
import { agentCapabilitySchema, capabilitiesOf } from "../../registry/capabilities";

/** GET /discover/capabilities: what an agent can do here, one AgentCapability per operation. */
export const listCapabilities = defineOperation({
  id: "listCapabilities",
  method: "GET",
  path: "/discover/capabilities",
  summary: "Every operation of the agent API as an AgentCapability",
  category: "meta",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: {},
  response: z.object({ version: z.string(), capabilities: z.array(agentCapabilitySchema) }),
  mcpTool: "svc_list_capabilities",
  async handler(_ctx, _input, call) {
    return { version: call.version || CURRENT_VERSION, capabilities: capabilitiesOf(call.registry) };
  },
});
