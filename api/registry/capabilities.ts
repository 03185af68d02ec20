/**
 * AgentCapability records (spec "AgentCapability") derived from registry operations, and the subset a given key may
 * call: public and wallet-proof operations, plus key operations whose tier and scopes the key meets.
 */
import type { AnyOperation } from "./types";
import type { KeyPrincipal } from "../domain/auth/principal";
import type { AgentTier } from "../domain/auth/scopes";
import { mayCall, requiredTierOf } from "./access";

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

/**
 * The record of one operation, as `GET /discover/capabilities` and `GET /me` list it. `path` is as the spec writes it:
 * relative to the API base, absolute for a host-root operation (which is what an operation's `path` holds).
 */
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

export function capabilitiesFor(ops: readonly AnyOperation[], p: KeyPrincipal): AgentCapability[] {
  return ops.filter((op) => !op.deprecation?.sunset && mayCall(op, p)).map(capabilityOf);
}
