/** Authorization tiers and scopes of the spec ("Authentication"), and the grants of each registration path. */

export const AGENT_TIERS = ["read-only", "propose", "execute"] as const;
export type AgentTier = (typeof AGENT_TIERS)[number];

export const SCOPES = [
  "markets:read",
  "forecasts:write",
  "markets:propose",
  "markets:create",
  "trade:quote",
  "trade:execute",
  "resolution:execute",
  "fees:claim",
  "portfolio:read",
  "social:write",
  "webhooks:manage",
  "keys:read",
] as const;
export type Scope = (typeof SCOPES)[number];

/** True when `have` passes a requirement of `need` (strict hierarchy: a higher tier passes every lower one). */
export function tierAtLeast(have: AgentTier, need: AgentTier): boolean {
  return AGENT_TIERS.indexOf(have) >= AGENT_TIERS.indexOf(need);
}

/** Scopes granted at registration, per path (spec table "Getting a key"). */
export const GRANTS = {
  email: ["markets:read", "forecasts:write", "markets:propose", "trade:quote", "portfolio:read", "social:write", "keys:read"],
  wallet: [...SCOPES],
  anonymous: ["markets:read", "forecasts:write"],
  claim: ["markets:read", "trade:quote", "portfolio:read", "keys:read"],
} as const satisfies Record<string, readonly Scope[]>;

/** Scopes the owner's claim adds to a claimed agent. */
export const CLAIM_UNLOCKS = [
  "forecasts:write",
  "markets:propose",
  "markets:create",
  "trade:execute",
  "resolution:execute",
  "fees:claim",
  "social:write",
  "webhooks:manage",
] as const satisfies readonly Scope[];

/** Scopes of a locally created agent (admin CLI, demo agent) of a given tier. */
export function scopesForTier(tier: AgentTier): Scope[] {
  if (tier === "execute") return [...SCOPES];
  if (tier === "propose") return [...GRANTS.email];
  return ["markets:read", "trade:quote", "portfolio:read", "keys:read"];
}

/** The union of scope lists, in the canonical order of SCOPES. */
export function unionScopes(...lists: readonly (readonly string[])[]): Scope[] {
  const have = new Set(lists.flat());
  return SCOPES.filter((s) => have.has(s));
}

/** The higher of two tiers. */
export function maxTier(a: AgentTier, b: AgentTier): AgentTier {
  return tierAtLeast(a, b) ? a : b;
}
