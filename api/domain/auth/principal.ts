import type { RateThrottle, RateTier } from "../../platform/rate-limit/limits";
import type { AgentTier, Scope } from "./scopes";

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
  /** The operator's incident throttle on this agent (api/platform/rate-limit/limits.ts), if one was ever set. */
  rateThrottle?: RateThrottle | null;
  /** Epoch ms when an anonymous trial key stops working; null for permanent keys. */
  expiresAt: number | null;
  createdAt: number;
}
