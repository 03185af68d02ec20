import { defineOperation } from "../../registry/types";
import { runPreflight } from "../../domain/creation/flow";
import { reputationView } from "../../domain/creation/creator-standing";
import { creationRequestSchema } from "../../domain/creation/request";
import { preflightAnswerSchema } from "../../domain/creation/schemas";

/**
 * POST /negotiate/preflight: a dry run of propose. Answers whether this agent may create this market now and, if
 * not, every failed check at once (code + field). Changes nothing (the agent's ledger account may be opened).
 */
export const negotiatePreflight = defineOperation({
  id: "negotiatePreflight",
  method: "POST",
  path: "/negotiate/preflight",
  summary: "Dry run of a market creation: every failed check at once",
  category: "markets",
  permission: "api-key-read",
  tier: "propose",
  scopes: ["markets:propose"],
  rateClass: "write",
  charged: true,
  idempotency: "exempt",
  request: { body: creationRequestSchema },
  response: preflightAnswerSchema,
  mcpTool: "svc_negotiate_preflight",
  async handler(_ctx, { body }, call) {
    const a = await runPreflight(call.services.creation, call.principal, body);
    return { ok: a.ok, lane: a.lane, failures: a.failures, reputation: reputationView(a.standing) };
  },
});
