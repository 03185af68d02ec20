import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { apiBase, nonceUrl } from "../../domain/auth/links";
import { registrationLimits } from "../../domain/auth/registration-paths";
import { ceilingsOf } from "../../platform/rate-limit/limits";
import { TRADE_DEFAULTS } from "../../domain/trading/trade-defaults";
import { NONCE_TTL_MS } from "../../domain/auth/wallet-proof/nonces";
import { PROOF_KINDS, PROOF_TEMPLATES } from "../../domain/auth/wallet-proof/templates";
import { siweExample, SIWE_TEMPLATE } from "../../domain/auth/wallet-proof/siwe";
import { DATA_PLANE_LIMITS } from "../../domain/auth/data-plane-limits";

const RATE_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];
const EXAMPLE_WALLET = "0x000000000000000000000000000000000000dEaD" as const;
const EXAMPLE_NONCE = "0123456789abcdef0123456789abcdef";

/** GET /auth-discovery: how wallet proofs, keys and limits work (spec "Wallet proofs"). */
export const getAuthDiscovery = defineOperation({
  id: "getAuthDiscovery",
  method: "GET",
  path: "/auth-discovery",
  summary: "Wallet-proof templates, nonce endpoint, rate limits and trade defaults",
  category: "discovery",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: {},
  response: z.object({
    nonceEndpoint: z.string(),
    verifyEndpoint: z.object({ method: z.literal("POST"), path: z.string(), summary: z.string() }),
    messageTemplates: z.array(z.object({ kind: z.literal("siwe"), template: z.string(), example: z.string(), preferredFor: z.array(z.string()) })),
    walletProof: z.object({
      nonceEndpoint: z.string(),
      templates: z.array(z.object({ kind: z.enum(["agent-register", "agent-bind-wallet", "agent-key-recovery"]), template: z.string(), usedBy: z.string() })),
    }),
    signaturePolicy: z.object({ lifetime: z.string(), retry: z.string() }),
    rateLimit: z.object({ responseHeaders: z.array(z.string()), retryHeader: z.string(), guidance: z.string() }),
    agentApiRateLimits: z.object({
      tiers: z.array(z.object({ tier: z.string(), access: z.string() })),
      responseHeaders: z.array(z.string()),
      retryHeader: z.string(),
      dataPlane: z.object({ guidance: z.string() }),
    }),
    registrationRateLimits: z.object({
      paths: z.array(
        z.object({ path: z.enum(["anonymous", "email", "wallet", "key-recovery"]), status: z.enum(["open", "closed"]), perMinutePerIp: z.number().int() }),
      ),
      responseHeaders: z.array(z.string()),
      retryHeader: z.string(),
      guidance: z.string(),
    }),
    tradeDefaults: z.object({ slippageBpsDefault: z.number().int(), slippageBpsMax: z.number().int(), recommendedRefreshMs: z.number().int() }),
    notes: z.array(z.string()),
  }),
  mcpTool: "svc_get_auth_discovery",
  async handler(ctx, _input, call) {
    const base = apiBase(call.origin);
    const tiers = (["ordinary", "market-maker"] as const).map((tier) => {
      const c = ceilingsOf(ctx.config, tier);
      return { tier, access: `read ${c.read}/min, write ${c.write}/min, data ${c.data}/min per key (60 s sliding window)` };
    });
    return {
      nonceEndpoint: nonceUrl(call.origin),
      verifyEndpoint: {
        method: "POST" as const,
        path: "/api/auth/verify",
        summary: "Verify a SIWE message signed with one of our nonces (spends the nonce; issues no key)",
      },
      messageTemplates: [
        {
          kind: "siwe" as const,
          template: SIWE_TEMPLATE,
          example: siweExample(call.origin, ctx.config.CHAIN_ID, EXAMPLE_WALLET, EXAMPLE_NONCE, new Date(ctx.clock.now())),
          preferredFor: ["POST /api/auth/verify", "wallet sign-in from browsers and wallets that render EIP-4361"],
        },
      ],
      walletProof: {
        nonceEndpoint: nonceUrl(call.origin),
        templates: PROOF_KINDS.map((k) => ({
          kind: PROOF_TEMPLATES[k].discoveryKind as "agent-register",
          template: PROOF_TEMPLATES[k].template,
          usedBy: PROOF_TEMPLATES[k].usedBy,
        })),
      },
      signaturePolicy: {
        lifetime: `A nonce is valid ${NONCE_TTL_MS / 1000} seconds after POST /api/auth/nonce and is spent by its first successful proof. Sign with EIP-191 personal_sign over the exact message text.`,
        retry:
          "A refused proof (401 WALLET_AUTH_INVALID) does not spend the nonce unless the signature was valid; if in doubt, fetch a fresh nonce, rebuild the message and sign again. Never reuse a nonce.",
      },
      rateLimit: {
        responseHeaders: RATE_HEADERS,
        retryHeader: "Retry-After",
        guidance:
          "60-second sliding window; RateLimit-Reset is the absolute epoch second when the oldest charged request ages out. On 429 wait Retry-After seconds (it takes precedence).",
      },
      agentApiRateLimits: {
        tiers,
        responseHeaders: RATE_HEADERS,
        retryHeader: "Retry-After",
        dataPlane: {
          guidance: `Per market: at most ${DATA_PLANE_LIMITS.framesPerMinutePerMarket} frames per minute, ${DATA_PLANE_LIMITS.burstFramesPerTenSecondsPerMarket} per 10 s burst, ${DATA_PLANE_LIMITS.maxActiveSeriesPerActor} active series per actor. Your live values are on GET ${base}/me under dataPlane.`,
        },
      },
      registrationRateLimits: {
        paths: registrationLimits(ctx.config),
        responseHeaders: RATE_HEADERS,
        retryHeader: "Retry-After",
        guidance:
          "Registration and key recovery have their own per-IP windows besides the general per-IP limit; a 429 names the window. Check registration.paths[].status on GET /mcp-discovery before registering.",
      },
      tradeDefaults: { ...TRADE_DEFAULTS },
      notes: [
        "Send the API key as Authorization: Bearer <key> (alias X-API-Key). Raw keys are shown once.",
        "Rotate a key with POST {rotateKey link of GET /me}; recover a lost key with the svc-api-key-recovery wallet proof at POST /keys/recover.",
        "Wallet addresses in proof messages are lower-case; walletAddress in the body may be checksummed.",
        "Write operations need an Idempotency-Key header (1..256 characters); POST /api/auth/nonce and POST /api/auth/verify are exempt.",
      ],
    };
  },
});
