import { z } from "zod";
import { turnstileVerifierOf } from "../../domain/auth/turnstile";
import { defineOperation, Reply } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { claimedAgentsOfOwner, createAgent } from "../../domain/auth/agents";
import { issueKey } from "../../domain/auth/api-keys";
import { createLink, LINK_TTL_MS } from "../../domain/auth/claim-links";
import { checkClaimMailAllowed } from "../../domain/auth/claim-mail-throttle";
import { claimMail, verifyEmailMail } from "../../domain/auth/link-mails";
import { apiBase } from "../../domain/auth/links";
import { ledgerAccountOf } from "../../domain/auth/ledger-account";
import { pathOpen, type RegisterPath } from "../../domain/auth/registration-paths";
import { AGENT_TIERS, CLAIM_UNLOCKS, GRANTS, SCOPES, type AgentTier, type Scope } from "../../domain/auth/scopes";
import { verifyWalletProof } from "../../domain/auth/wallet-proof/verify";
import { emailAddress, evmAddress, hexSignature } from "./schemas";

/** An owner email may claim at most this many agents (spec rule 2); only claimed agents count. */
export const MAX_AGENTS_PER_OWNER = 3;
const TRIAL_MS = 24 * 60 * 60 * 1000;

const body = z.strictObject({
  name: z.string().trim().min(1).max(255),
  email: emailAddress.optional(),
  walletAddress: evmAddress.optional(),
  walletSignature: hexSignature.optional(),
  signedMessage: z.string().min(1).max(400).optional(),
  turnstileToken: z.string().min(1).optional(),
  ownerEmail: emailAddress.optional(),
});
type RegisterBody = z.output<typeof body>;

const GRANTS_OF: Record<RegisterPath, { tier: AgentTier; scopes: readonly Scope[]; status: "claim-pending" | "active" | "dormant" | "trial" }> = {
  claim: { tier: "read-only", scopes: GRANTS.claim, status: "claim-pending" },
  wallet: { tier: "execute", scopes: GRANTS.wallet, status: "active" },
  email: { tier: "propose", scopes: GRANTS.email, status: "dormant" },
  anonymous: { tier: "read-only", scopes: GRANTS.anonymous, status: "trial" },
};

/** Which path a body asks for; a body that mixes paths is refused with 400. */
export function registerPathOf(b: RegisterBody): RegisterPath {
  const bad = (field: string, detail: string) => new ApiError("INVALID_PAYLOAD", detail, { field, location: "body" });
  if (b.ownerEmail && !b.walletAddress) throw bad("walletAddress", "ownerEmail is sent with a wallet proof (walletAddress, walletSignature, signedMessage)");
  if (b.walletAddress && b.email)
    throw bad("email", "email plus wallet is an upgrade, not a first-run path: register with one, then POST /agents/me/bind-email or /agents/me/bind-wallet");
  if (b.walletAddress) {
    if (!b.walletSignature) throw bad("walletSignature", "walletSignature is required with walletAddress");
    if (!b.signedMessage) throw bad("signedMessage", "signedMessage is required with walletAddress");
    return b.ownerEmail ? "claim" : "wallet";
  }
  if (b.walletSignature || b.signedMessage) throw bad("walletAddress", "walletAddress is required with a wallet signature");
  if (b.email) return "email";
  if (!b.turnstileToken) throw bad("turnstileToken", "send a wallet proof, an email, or (anonymous path) a turnstileToken");
  return "anonymous";
}

/** The anonymous path's token, through the configured verifier: a failed one is the caller's 400, an unreachable
 *  siteverify our 503 (the caller retries; nothing was created). */
async function checkTurnstile(config: Parameters<typeof turnstileVerifierOf>[0], token: string, ip: string): Promise<void> {
  const outcome = await turnstileVerifierOf(config).verify(token, ip || undefined);
  if (outcome.ok === true) return;
  if (outcome.ok === "unavailable") {
    throw new ApiError(
      "SERVICE_UNAVAILABLE",
      `the Turnstile token cannot be checked right now (${outcome.detail}); retry after Retry-After seconds`,
      {},
      { "Retry-After": "5" },
    );
  }
  throw new ApiError(
    "INVALID_PAYLOAD",
    `the Turnstile token did not verify${outcome.errorCodes.length ? ` (${outcome.errorCodes.join(", ")})` : ""}: solve the widget again and send the new token`,
    {
      field: "turnstileToken",
      location: "body",
      turnstileErrors: outcome.errorCodes,
    },
  );
}

/** POST /register: a new agent and its first key (spec rules 1 and 2; docs/auth.md). */
export const registerAgent = defineOperation({
  id: "registerAgent",
  method: "POST",
  path: "/register",
  summary: "Register an agent and get its API key (shown once)",
  description:
    "Paths: claimed agent (wallet proof + ownerEmail; open by default), wallet, email, anonymous (closed by default: 403 FEATURE_DISABLED reason AGENT_REGISTRATION_CLOSED). signedMessage is exactly svc-register:{walletAddressLowercase}:{nonce} with a nonce from POST /api/auth/nonce.",
  category: "registration",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "write",
  charged: true,
  idempotency: "required",
  ipLimit: "register",
  request: { body },
  status: 201,
  otherStatuses: [202],
  response: z.object({
    agentId: z.uuid(),
    name: z.string(),
    keyId: z.string(),
    apiKey: z.string().describe("the raw key: shown once, never again"),
    status: z.enum(["claim-pending", "active", "dormant", "trial"]),
    tier: z.enum(AGENT_TIERS),
    scopes: z.array(z.enum(SCOPES)),
    walletAddress: z.string().nullable(),
    email: z.string().nullable(),
    ledgerAccount: z.string(),
    expiresAt: z.string().nullable(),
    claim: z
      .object({
        ownerEmail: z.string(),
        status: z.literal("pending"),
        claimLinkExpiresAt: z.string(),
        unlocksScopes: z.array(z.enum(SCOPES)),
        resendClaimLinkUrl: z.string(),
      })
      .nullable(),
    links: z.object({ me: z.string(), rotateKey: z.string(), authDiscovery: z.string() }),
    notice: z.string(),
  }),
  secretFields: ["apiKey"],
  errors: [
    "WALLET_AUTH_INVALID",
    "WALLET_ADDRESS_MISMATCH",
    "FEATURE_DISABLED",
    "AGENT_ALREADY_EXISTS",
    "EMAIL_ALREADY_REGISTERED",
    "NAME_TAKEN",
    "CONFLICT",
    "SERVICE_UNAVAILABLE",
  ],
  mcpTool: "svc_register_agent",
  async handler(ctx, { body: b }, call) {
    const path = registerPathOf(b);
    if (!pathOpen(ctx.config, path)) {
      throw new ApiError("FEATURE_DISABLED", `the ${path} registration path is closed on this service; read registration on GET /mcp-discovery`, {
        reason: "AGENT_REGISTRATION_CLOSED",
        path,
      });
    }
    if (path === "anonymous") await checkTurnstile(ctx.config, b.turnstileToken!, call.ip);
    const now = ctx.clock.now();
    const grant = GRANTS_OF[path];
    const made = await ctx.db.transaction(async (tx) => {
      const wallet = b.walletAddress
        ? await verifyWalletProof(tx, "register", { walletAddress: b.walletAddress, walletSignature: b.walletSignature!, signedMessage: b.signedMessage! }, now)
        : null;
      if (path === "claim") {
        // Only agents the owner claimed count (docs/auth.md): naming an address proves nothing about its owner.
        if ((await claimedAgentsOfOwner(tx, b.ownerEmail!)) >= MAX_AGENTS_PER_OWNER) {
          throw new ApiError("CONFLICT", `the owner email has already claimed ${MAX_AGENTS_PER_OWNER} agents`, {
            reason: "OWNER_AGENT_LIMIT",
            limit: MAX_AGENTS_PER_OWNER,
          });
        }
        await checkClaimMailAllowed(tx, b.ownerEmail!, null, now);
      }
      // An unclaimed agent lives as long as its claim link (a resend extends both); a claim clears the expiry.
      const expiresAt = path === "anonymous" ? now + TRIAL_MS : path === "claim" ? now + LINK_TTL_MS : null;
      const agentId = await createAgent(
        tx,
        {
          name: b.name,
          tier: grant.tier,
          scopes: grant.scopes,
          registrationPath: path,
          walletAddress: wallet,
          email: b.email ?? null,
          ownerEmail: b.ownerEmail ?? null,
          expiresAt,
        },
        now,
      );
      const key = await issueKey(tx, agentId, now);
      const link =
        path === "claim"
          ? await createLink(tx, agentId, "claim", b.ownerEmail!, now)
          : path === "email"
            ? await createLink(tx, agentId, "verify-email", b.email!, now)
            : null;
      return { agentId, key, wallet, expiresAt, link };
    });
    if (made.link && path === "claim")
      await call.services.mailer.send(
        claimMail(call.origin, b.ownerEmail!.toLowerCase(), { name: b.name, walletAddress: made.wallet }, made.link.token, made.link.expiresAt),
      );
    if (made.link && path === "email")
      await call.services.mailer.send(verifyEmailMail(call.origin, b.email!.toLowerCase(), b.name, made.link.token, made.link.expiresAt));
    const base = apiBase(call.origin);
    const notices: Record<RegisterPath, string> = {
      claim: `Store apiKey now: it is shown once. It reads and quotes at once; the owner (${b.ownerEmail}) got a claim link (24 h) that unlocks trading. Unclaimed, the agent and its key expire with the link.`,
      wallet: "Store apiKey now: it is shown once. The key is active with execute authority.",
      email: `Store apiKey now: it is shown once. It stays dormant until the link mailed to ${b.email} is followed.`,
      anonymous: "Store apiKey now: it is shown once. Read-only trial for 24 hours; bind an email or a wallet to keep the agent.",
    };
    const res = {
      agentId: made.agentId,
      name: b.name,
      keyId: made.key.keyId,
      apiKey: made.key.apiKey,
      status: grant.status,
      tier: grant.tier,
      scopes: [...grant.scopes],
      walletAddress: made.wallet,
      email: b.email?.toLowerCase() ?? null,
      ledgerAccount: ledgerAccountOf(made.agentId, made.wallet),
      expiresAt: made.expiresAt === null ? null : new Date(made.expiresAt).toISOString(),
      claim:
        path === "claim" && made.link
          ? {
              ownerEmail: b.ownerEmail!.toLowerCase(),
              status: "pending" as const,
              claimLinkExpiresAt: new Date(made.link.expiresAt).toISOString(),
              unlocksScopes: [...CLAIM_UNLOCKS],
              resendClaimLinkUrl: `${base}/agents/me/claim-link`,
            }
          : null,
      links: { me: `${base}/me`, rotateKey: `${base}/keys/${made.key.keyId}/rotate`, authDiscovery: `${base}/auth-discovery` },
      notice: notices[path],
    };
    // The dormant email path answers 202: the key exists but does nothing until the email is verified.
    return new Reply(path === "email" ? 202 : 201, res);
  },
});
