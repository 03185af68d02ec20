/** Request pieces shared by the registration, upgrade and key operations, and the access of an agent's own writes. */
import { z } from "zod";
import type { Operation } from "../../registry/types";

/**
 * The access of an agent's writes on its own registration (bind an email or a wallet, resend its claim link): any
 * valid key of the agent, even read-only and unclaimed, no scope; one charged write, Idempotency-Key required.
 */
export const AGENT_SELF_WRITE = {
  category: "registration",
  permission: "api-key-read",
  tier: "read-only",
  scopes: [],
  rateClass: "write",
  charged: true,
  idempotency: "required",
} as const satisfies Pick<Operation, "category" | "permission" | "tier" | "scopes" | "rateClass" | "charged" | "idempotency">;

export const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address (0x + 40 hex digits)");
export const hexSignature = z.string().regex(/^0x[0-9a-fA-F]+$/, "must be 0x followed by hex digits");
export const emailAddress = z.email().max(320);
export const linkToken = z.string().min(1).max(200);

/** The three fields of a wallet proof (docs/auth.md "Wallet proofs"). */
export const walletProofFields = {
  walletAddress: evmAddress,
  walletSignature: hexSignature.describe("EIP-191 signature of signedMessage by walletAddress"),
  signedMessage: z.string().min(1).max(400),
};
