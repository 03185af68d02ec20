/**
 * AgentCapability records (spec "AgentCapability") derived from registry operations, and the subset a given key may
 * call: public and wallet-proof operations, plus key operations whose tier and scopes the key meets.
 */
import type { AnyOperation } from "../../registry/types";
import type { KeyPrincipal } from "./principal";
import { tierAtLeast, type AgentTier } from "./scopes";

export interface AgentCapability {
  name: string;
  category: string;
  requiredTier: AgentTier;
  description: string;
  method: AnyOperation["method"];
  path: string;
  idempotent: boolean;
  surface: "agent";
}

/** The tier an operation really asks of a key (execute permission means tier execute at least). */
export function requiredTierOf(op: AnyOperation): AgentTier {
  return op.permission === "api-key-execute" && op.tier === "read-only" ? "execute" : op.tier;
}

export function capabilityOf(op: AnyOperation): AgentCapability {
  return {
    name: `${op.method} ${op.path}`,
    category: op.category,
    requiredTier: requiredTierOf(op),
    description: op.description ?? op.summary,
    method: op.method,
    path: op.path,
    idempotent: op.method === "GET" || op.idempotency === "required",
    surface: "agent",
  };
}

export function mayCall(op: AnyOperation, p: KeyPrincipal): boolean {
  if (op.permission === "none" || op.permission === "wallet-proof") return true;
  if (op.permission === "api-key-execute" && p.registrationPath === "email" && !p.emailVerified) return false;
  return tierAtLeast(p.tier, requiredTierOf(op)) && op.scopes.every((s: string) => p.scopes.includes(s as never));
}

export function capabilitiesFor(ops: readonly AnyOperation[], p: KeyPrincipal): AgentCapability[] {
  return ops.filter((op) => !op.deprecation?.sunset && mayCall(op, p)).map(capabilityOf);
}
