/** AgentCapability records (spec "AgentCapability") of every registry operation. */
import { z } from "zod";
import { AGENT_TIERS } from "../../domain/auth/scopes";
import { API_BASE_PATH, fullPath, type Registry } from "../../registry/registry";
import type { AnyOperation } from "../../registry/types";

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

/** The path as the spec writes it: relative to the API base for API operations, absolute for host-root ones. */
export function capabilityPath(op: AnyOperation): string {
  return op.root ? fullPath(op) : fullPath(op).slice(API_BASE_PATH.length) || "/";
}

export function capabilityOf(op: AnyOperation): AgentCapability {
  const path = capabilityPath(op);
  return {
    name: `${op.method} ${path}`,
    category: op.category,
    requiredTier: op.tier,
    description: op.description ?? op.summary,
    method: op.method,
    path,
    idempotent: op.method === "GET" || op.idempotency === "required",
    surface: "agent",
  };
}

export function capabilitiesOf(registry: Registry): AgentCapability[] {
  return registry.operations.map(capabilityOf);
}
