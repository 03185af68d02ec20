import type { AgentTier, Scope } from "./scopes";

/** Allocation tier of the rate-limit ceilings: a separate axis from the authorization tier. */
export type RateTier = "ordinary" | "market-maker";

/** The agent and key behind an authenticated call. */
export interface KeyPrincipal {
  agentId: string;
  keyId: string;
  name: string;
  tier: AgentTier;
  scopes: Scope[];
  walletAddress: string | null;
  email: string | null;
  emailVerified: boolean;
  registrationPath: string;
  rateTier: RateTier;
  rateOverridden: boolean;
  /** Epoch ms when an anonymous trial key stops working; null for permanent keys. */
  expiresAt: number | null;
  createdAt: number;
}
