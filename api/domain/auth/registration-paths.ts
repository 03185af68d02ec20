/**
 * The registration paths of POST /register, whether each is open (config REGISTRATION_*_OPEN) and the registration
 * object GET /mcp-discovery publishes (spec "Registration and claim records").
 */
import type { Config } from "../../config";
import { ipCeilings } from "../../platform/rate-limit/limits";
import { apiBase } from "./links";
import { CLAIM_UNLOCKS, GRANTS } from "./scopes";

export type RegisterPath = "claim" | "wallet" | "email" | "anonymous";

export function pathOpen(config: Config, path: RegisterPath): boolean {
  switch (path) {
    case "claim":
      return config.REGISTRATION_CLAIM_OPEN;
    case "wallet":
      return config.REGISTRATION_WALLET_OPEN;
    case "email":
      return config.REGISTRATION_EMAIL_OPEN;
    case "anonymous":
      return config.REGISTRATION_ANONYMOUS_OPEN;
  }
}

const status = (open: boolean) => (open ? ("open" as const) : ("closed" as const));

export const CLOSED_DETAIL =
  "Self-serve registration is closed by default since 2026-09-16: read registration.paths[].status and registration.claim.status first. A closed path answers 403 FEATURE_DISABLED with reason AGENT_REGISTRATION_CLOSED.";

export function registrationDiscovery(config: Config, origin: string) {
  const base = apiBase(origin);
  return {
    registerUrl: `${base}/register`,
    accountCredentialUrl: `${base}/auth`,
    closedDetail: CLOSED_DETAIL,
    paths: [
      {
        kind: "email" as const,
        status: status(pathOpen(config, "email")),
        description: "Send name and email; the key is dormant until the link mailed to the email is followed (POST /agents/verify-email).",
        requires: ["email" as const],
        grantsScopes: [...GRANTS.email],
        ttlHours: null,
      },
      {
        kind: "wallet" as const,
        status: status(pathOpen(config, "wallet")),
        description:
          "Send name, walletAddress, signedMessage svc-register:{walletAddressLowercase}:{nonce} and its EIP-191 walletSignature; the key is active with execute authority.",
        requires: ["walletProof" as const],
        grantsScopes: [...GRANTS.wallet],
        ttlHours: null,
      },
      {
        kind: "anonymous" as const,
        status: status(pathOpen(config, "anonymous")),
        description: "Send name and turnstileToken only; a read-only trial key for 24 hours. Bind an email or a wallet to keep the agent.",
        requires: ["turnstileToken" as const],
        grantsScopes: [...GRANTS.anonymous],
        ttlHours: 24,
      },
    ],
    claim: {
      status: status(pathOpen(config, "claim")),
      description:
        "Send name, the wallet proof and ownerEmail (the accountable human, up to 3 agents per owner email). The key reads and quotes at once; the owner gets a claim link (24 h) by mail, and claiming unlocks the trading scopes and tier execute.",
      requires: ["walletProof" as const, "ownerEmail" as const],
      grantsScopes: [...GRANTS.claim],
      unlocksScopes: [...CLAIM_UNLOCKS],
      claimLinkTtlHours: 24 as const,
      resendClaimLinkUrl: `${base}/agents/me/claim-link`,
    },
    turnstileSiteKey: config.TURNSTILE_SITE_KEY ?? null,
    upgradeUrls: { bindEmail: `${base}/agents/me/bind-email`, bindWallet: `${base}/agents/me/bind-wallet`, recoverKey: `${base}/keys/recover` },
  };
}

/** Per-IP registration limits (auth discovery `registrationRateLimits.paths`). */
export function registrationLimits(config: Config) {
  const ip = ipCeilings(config);
  return [
    { path: "anonymous" as const, status: status(pathOpen(config, "anonymous")), perMinutePerIp: ip.register },
    { path: "email" as const, status: status(pathOpen(config, "email")), perMinutePerIp: ip.register },
    { path: "wallet" as const, status: status(pathOpen(config, "wallet") || pathOpen(config, "claim")), perMinutePerIp: ip.register },
    { path: "key-recovery" as const, status: "open" as const, perMinutePerIp: ip.recovery },
  ];
}
