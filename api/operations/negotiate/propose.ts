import { defineOperation, Reply } from "../../registry/types";
import { negotiationView, propose } from "../../domain/creation/flow";
import { creationRequestSchema } from "../../domain/creation/request";
import { negotiationSchema } from "../../domain/creation/schemas";

/**
 * POST /negotiate/propose: the server's terms for this market (normalised title, fees stamped from the factories'
 * live defaults, the creation bond, every deadline, the PM to lock) as a negotiation that expires at `expiresAt`.
 * Refused with the first failed check's code (every failure in `errors`); nothing is reserved or locked.
 */
export const negotiatePropose = defineOperation({
  id: "negotiatePropose",
  method: "POST",
  path: "/negotiate/propose",
  summary: "Propose a market: the server's terms",
  category: "markets",
  permission: "api-key-read",
  tier: "propose",
  scopes: ["markets:propose"],
  rateClass: "write",
  charged: true,
  idempotency: "required",
  groupCommit: true,
  errors: [
    "EXTERNAL_ID_TAKEN",
    "CLOSE_TIME_OUT_OF_RANGE",
    "COLLATERAL_NOT_SERVED",
    "MARKET_SHAPE_UNSUPPORTED",
    "RESOLUTION_SOURCE_UNSUPPORTED",
    "SEED_ABOVE_LIMIT",
    "CREATION_NOT_ALLOWED",
    "CONCURRENT_MARKET_LIMIT",
    "INSUFFICIENT_BALANCE",
    "CONTENT_BLOCKED",
    "WALLET_REQUIRED",
    "SERVICE_UNAVAILABLE",
  ],
  request: { body: creationRequestSchema },
  status: 201,
  response: negotiationSchema,
  mcpTool: "svc_negotiate_propose",
  async handler(_ctx, { body }, call) {
    return new Reply(201, negotiationView(await propose(call.services.creation, call.principal, body, call.unit)));
  },
});
