/**
 * The response schema of an AgentCapability record (spec "AgentCapability"), and the records of every registry
 * operation. One rule makes a record, for this list and for `GET /me`'s: `capabilityOf` in api/registry/capabilities.ts.
 */
import { z } from "zod";
import { type AgentCapability, capabilityOf } from "../../registry/capabilities";
import type { ServedOperations } from "../../registry/types";
import { AGENT_TIERS } from "../../domain/auth/scopes";

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

export function capabilitiesOf(registry: ServedOperations): AgentCapability[] {
  return registry.operations.map(capabilityOf);
}
