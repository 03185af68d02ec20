import type { Operation } from "../../registry/types";

/**
 * The access of a creator's step on its own negotiation once terms are proposed (accept, reject, prepare-deploy,
 * commit-deploy): execute tier, markets:create, one charged write, Idempotency-Key required, group-committed. Spread
 * it into an operation. (Preflight, propose and reads need only the propose tier and markets:propose.)
 */
export const CREATOR_WRITE = {
  category: "markets",
  permission: "api-key-execute",
  tier: "execute",
  scopes: ["markets:create"],
  rateClass: "write",
  charged: true,
  idempotency: "required",
  groupCommit: true,
} as const satisfies Pick<Operation, "category" | "permission" | "tier" | "scopes" | "rateClass" | "charged" | "idempotency" | "groupCommit">;
