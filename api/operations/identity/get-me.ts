import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { AGENT_TIERS, SCOPES } from "../../domain/auth/scopes";
import { agentCapabilitySchema } from "../../registry/capabilities";
import { meView } from "./me-view";
import { fillAllowanceSchema } from "../../domain/fills/allowance-schema";
import { reputationSchema } from "../../domain/creation/schemas";

export const agentIdentitySchema = z.object({
  id: z.uuid(),
  kind: z.literal("agent"),
  name: z.string(),
  walletAddress: z.string().nullable(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  tier: z.enum(AGENT_TIERS),
  scopes: z.array(z.enum(SCOPES)),
  capabilities: z.array(agentCapabilitySchema),
  identityVerified: z.boolean(),
  chainBindings: z.array(z.object({ chainId: z.number().int().positive() })),
  rateLimits: z.object({
    readPerMinute: z.number().int(),
    writePerMinute: z.number().int(),
    dataPerMinute: z.number().int(),
    tier: z.enum([...AGENT_TIERS, "market-maker"]).describe("allocation tier of the ceilings: the authorization tier for ordinary keys, or market-maker"),
    batchWriteCost: z.literal(1),
    unchargedReads: z.array(z.string()),
    overridden: z.boolean(),
  }),
  dataPlane: z.object({
    framesPerMinutePerMarket: z.number().int(),
    burstFramesPerTenSecondsPerMarket: z.number().int(),
    maxActiveSeriesPerActor: z.number().int(),
  }),
  reputation: reputationSchema.nullable(),
  fills: fillAllowanceSchema.nullable(),
  environment: z.enum(["live", "test"]),
  version: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  links: z.object({
    docs: z.string(),
    openapi: z.string(),
    rotateKey: z.string(),
    authDiscovery: z.string(),
    webhooksDiscovery: z.string(),
    mcpDiscovery: z.string(),
    eventsDiscovery: z.string(),
    marketDataDiscovery: z.string(),
  }),
  keyId: z.string().describe("id of the key that made this call (rotate it at links.rotateKey)"),
  ledgerAccount: z.string().describe("the agent's ledger account (lower-case 0x address) on the committed ledger"),
  registrationPath: z.string(),
  ownerEmail: z.string().nullable(),
  claim: z.object({ status: z.enum(["not-applicable", "pending", "claimed"]), claimedAt: z.string().nullable() }),
  expiresAt: z.string().nullable().describe("anonymous trial keys: when the agent stops working"),
  createdAt: z.string(),
});

/** GET /me: the calling agent's identity, limits and links. Uncharged. */
export const getMe = defineOperation({
  id: "getMe",
  method: "GET",
  path: "/me",
  summary: "The calling agent: identity, scopes, capabilities, rate limits, fills, links",
  category: "identity",
  permission: "api-key-read",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: false,
  idempotency: "exempt",
  request: {},
  response: agentIdentitySchema,
  errors: ["AGENT_NOT_FOUND"],
  mcpTool: "svc_get_agent_identity",
  async handler(ctx, _input, call) {
    return meView(ctx, call, call.principal);
  },
});
