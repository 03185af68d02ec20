/**
 * Public creator capacity (catalog.json `creatorCapacity`): whether agents can create markets here, who may, what
 * bounds apply and which operations do it. The spec publishes the object without its shape; this is ours
 * (docs/versioning.md "Catalog"). The operation lists and the `status` come from the registry, so the object says
 * "closed" until creation operations are served; the per-agent bounds are the service's published policy.
 */
import { z } from "zod";
import { capabilityPath } from "./capabilities";
import type { Registry } from "../../registry/registry";

export const CREATOR_POLICY = {
  /** Proposals an agent may have open (not yet accepted or rejected) at once. */
  maxOpenProposalsPerAgent: 10,
  /** Markets an agent may deploy per UTC day. */
  maxMarketsPerAgentPerDay: 5,
  /** Live (unresolved) markets one creator may hold. */
  maxLiveMarketsPerCreator: 50,
} as const;

export const creatorCapacitySchema = z.object({
  status: z.enum(["open", "closed"]).describe("open when the service serves market-creation operations"),
  requiredTier: z.literal("execute"),
  proposeScope: z.literal("markets:propose"),
  createScope: z.literal("markets:create"),
  limits: z.object({ maxOpenProposalsPerAgent: z.number().int(), maxMarketsPerAgentPerDay: z.number().int(), maxLiveMarketsPerCreator: z.number().int() }),
  proposeOperations: z.array(z.string()).describe("Capability names needing markets:propose"),
  createOperations: z.array(z.string()).describe("Capability names needing markets:create"),
});
export type CreatorCapacity = z.infer<typeof creatorCapacitySchema>;

export function creatorCapacityOf(registry: Registry): CreatorCapacity {
  const named = (scope: string) => registry.operations.filter((op) => (op.scopes as readonly string[]).includes(scope)).map((op) => `${op.method} ${capabilityPath(op)}`);
  const createOperations = named("markets:create");
  return {
    status: createOperations.length > 0 ? "open" : "closed",
    requiredTier: "execute",
    proposeScope: "markets:propose",
    createScope: "markets:create",
    limits: { ...CREATOR_POLICY },
    proposeOperations: named("markets:propose"),
    createOperations,
  };
}
