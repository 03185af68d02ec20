/**
 * Who may call an operation: the permission check shared by REST (through the auth middleware), the MCP adapter and the
 * realtime streams (the key from `Authorization: Bearer` or `X-API-Key`, then expiry, dormancy, tier and scopes), and
 * the same rule as a yes or no for the capabilities a key is shown (capabilities.ts, `GET /me`).
 */
import type { SqlRunner } from "../../relayer/db/client";
import { ApiError } from "../platform/errors/api-error";
import { requiresKey, type AnyOperation } from "./types";
import { findPrincipal } from "../domain/auth/api-keys";
import type { KeyPrincipal } from "../domain/auth/principal";
import { tierAtLeast, type AgentTier } from "../domain/auth/scopes";

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="agent-api"' };

/** The raw key a request presents, or null. A malformed Authorization header counts as no key. */
export function presentedKey(authorization: string | undefined, xApiKey: string | undefined): string | null {
  const m = authorization ? BEARER.exec(authorization) : null;
  return m?.[1] ?? xApiKey?.trim() ?? null;
}

/**
 * Resolves and checks the caller for `op`. Public operations accept a valid key (so the call is recorded) and ignore
 * an unknown one; key operations refuse a missing, unknown or expired key with 401 and a short tier or missing
 * scope with 403 FORBIDDEN.
 */
export async function authenticate(db: SqlRunner, op: AnyOperation, rawKey: string | null, now: number): Promise<KeyPrincipal | null> {
  const principal = await identify(db, op, rawKey, now);
  authorize(op, principal);
  return principal;
}

/**
 * Who calls (authentication only): the live principal of the key, or null. Refuses with 401 only where `op` needs a
 * key and none, an unknown or an expired one was presented.
 */
export async function identify(db: SqlRunner, op: AnyOperation, rawKey: string | null, now: number): Promise<KeyPrincipal | null> {
  const principal = rawKey ? await findPrincipal(db, rawKey) : null;
  const live = principal && (principal.expiresAt === null || principal.expiresAt > now) ? principal : null;
  if (!requiresKey(op.permission)) return live;
  if (!rawKey) throw new ApiError("AUTH_REQUIRED", "this operation needs an API key: send Authorization: Bearer <key> (or X-API-Key)", {}, CHALLENGE);
  if (!principal) throw new ApiError("AUTH_REQUIRED", "the API key is unknown or revoked", {}, CHALLENGE);
  if (!live) {
    const detail =
      principal.registrationPath === "claim"
        ? "this claimed agent expired unclaimed: its owner did not claim it within the claim link's lifetime; register again"
        : "the anonymous trial key has expired; register again or bind an email or wallet before it expires";
    throw new ApiError("AUTH_REQUIRED", detail, {}, CHALLENGE);
  }
  return live;
}

/** May this (identified) caller run `op`? Dormant email keys, a short tier and missing scopes are 403s. */
export function authorize(op: AnyOperation, principal: KeyPrincipal | null): void {
  if (!requiresKey(op.permission)) return;
  if (!principal) throw new ApiError("AUTH_REQUIRED", "this operation needs an API key", {}, CHALLENGE);
  const refused = refusal(op, principal);
  if (refused) throw refused;
}

/** Whether the key may call `op`: exactly what `authorize` lets through, as a yes or no. */
export function mayCall(op: AnyOperation, principal: KeyPrincipal): boolean {
  return !requiresKey(op.permission) || refusal(op, principal) === null;
}

/** The tier an operation really asks of a key (execute permission means tier execute at least). */
export function requiredTierOf(op: AnyOperation): AgentTier {
  return op.permission === "api-key-execute" && op.tier === "read-only" ? "execute" : op.tier;
}

/** Why a key operation refuses this key (a dormant email key, a short tier, missing scopes), or null. */
function refusal(op: AnyOperation, principal: KeyPrincipal): ApiError | null {
  if (op.permission === "api-key-execute" && principal.registrationPath === "email" && !principal.emailVerified) {
    return new ApiError("EMAIL_NOT_VERIFIED", "this key is dormant until the agent's email is verified (follow the link sent to it)");
  }
  const needTier = requiredTierOf(op);
  if (!tierAtLeast(principal.tier, needTier)) {
    return new ApiError("FORBIDDEN", `this operation needs tier ${needTier}; the key has tier ${principal.tier}`, {
      requiredTier: needTier,
      tier: principal.tier,
    });
  }
  const missing = op.scopes.filter((s: string) => !principal.scopes.includes(s as never));
  if (missing.length > 0) {
    return new ApiError("FORBIDDEN", `the key lacks the scope${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`, {
      requiredScopes: op.scopes,
      missingScopes: missing,
    });
  }
  return null;
}
