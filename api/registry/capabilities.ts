/**
 * AgentCapability records (spec "AgentCapability"): their schema, the record of each registry operation, and the
 * subset a given key may call (public and wallet-proof operations, plus key operations whose tier and scopes it meets).
 */
import { z } from "zod";
import type { AnyOperation, ServedOperations } from "./types";
import type { KeyPrincipal } from "../domain/auth/principal";
import { AGENT_TIERS } from "../domain/auth/scopes";
import { mayCall, requiredTierOf } from "./access";

/** An AgentCapability record (spec "AgentCapability"): the answer's schema of `GET /discover/capabilities` and `GET /me`. */
export const agentCapabilitySchema = z.object({
  name: z.string().describe("Canonical `METHOD /path` (relative to the API base; host-root paths start with /api/)"),
  category: z.string(),
  requiredTier: z.enum(AGENT_TIERS),
  description: z.string(),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]),
  path: z.string(),
  idempotent: z.boolean().describe("Safe to retry: a read, or a write replayed by its Idempotency-Key"),
  surface: z.literal("agent"),
});
export type AgentCapability = z.infer<typeof agentCapabilitySchema>;

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

/** The records of every operation served (`GET /discover/capabilities`). */
export function capabilitiesOf(registry: ServedOperations): AgentCapability[] {
  return registry.operations.map(capabilityOf);
}

/** The records of the operations this key may call (`GET /me`). */
export function capabilitiesFor(ops: readonly AnyOperation[], p: KeyPrincipal): AgentCapability[] {
  return ops.filter((op) => !op.deprecation?.sunset && mayCall(op, p)).map(capabilityOf);
}
