/**
 * Public creator capacity (catalog.json `creatorCapacity`): whether agents can create markets here, who may, what
 * bounds apply, the public creator cohort's slots and which operations do it. The spec publishes the object without
 * its shape; this is ours (docs/versioning.md "Catalog", docs/market-creation.md). The operation lists and `status`
 * come from the registry; the bounds are the creator tiers' gates (api/domain/creation/reputation-rules.ts).
 */
import { z } from "zod";
import type { ServedOperations } from "../../registry/types";
import { TIER_GATES } from "../../domain/creation/reputation-rules";
import { ACCEPT_WINDOW_MS, DEPLOY_WINDOW_MS } from "../../domain/creation/terms";

export const creatorCapacitySchema = z.object({
  status: z.enum(["open", "closed"]).describe("open when the service serves market-creation operations and public slots are left"),
  requiredTier: z.literal("execute"),
  proposeScope: z.literal("markets:propose"),
  createScope: z.literal("markets:create"),
  slots: z
    .object({ limit: z.number().int(), occupied: z.number().int(), available: z.number().int(), unlimited: z.literal(false) })
    .describe("the public creator cohort: limit 0 closes public creation to new creators"),
  limits: z.object({
    newCreatorConcurrentMarkets: z.number().int(),
    newCreatorMaxSeedMultiplier: z.number().nullable(),
    acceptWindowSeconds: z.number().int(),
    deployWindowSeconds: z.number().int(),
  }),
  proposeOperations: z.array(z.string()).describe("Capability names needing markets:propose"),
  createOperations: z.array(z.string()).describe("Capability names needing markets:create"),
});
export type CreatorCapacity = z.infer<typeof creatorCapacitySchema>;

export function creatorCapacityOf(registry: ServedOperations, slots: { limit: number; occupied: number; available: number }): CreatorCapacity {
  const named = (scope: string) => registry.operations.filter((op) => (op.scopes as readonly string[]).includes(scope)).map((op) => `${op.method} ${op.path}`);
  const createOperations = named("markets:create");
  return {
    status: createOperations.length > 0 && slots.available > 0 ? "open" : "closed",
    requiredTier: "execute",
    proposeScope: "markets:propose",
    createScope: "markets:create",
    slots: { limit: slots.limit, occupied: slots.occupied, available: slots.available, unlimited: false },
    limits: {
      newCreatorConcurrentMarkets: TIER_GATES.new.concurrentMarketLimit,
      newCreatorMaxSeedMultiplier: TIER_GATES.new.maxSeedMultiplier,
      acceptWindowSeconds: ACCEPT_WINDOW_MS / 1000,
      deployWindowSeconds: DEPLOY_WINDOW_MS / 1000,
    },
    proposeOperations: named("markets:propose"),
    createOperations,
  };
}
