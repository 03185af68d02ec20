import type { Operation } from "../../registry/types";

/**
 * The access of a trade lane's reads (a quote, a prepared intent and its execution): any key with trade:quote, one
 * charged read, no Idempotency-Key. Spread it into an operation.
 */
export const QUOTE_READ = {
  category: "trading",
  permission: "api-key-read",
  tier: "read-only",
  scopes: ["trade:quote"],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
} as const satisfies Pick<Operation, "category" | "permission" | "tier" | "scopes" | "rateClass" | "charged" | "idempotency">;
