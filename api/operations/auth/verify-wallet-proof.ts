import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { verifySiwe } from "../../domain/auth/wallet-proof/siwe";

/** POST /api/auth/verify (host root): checks a SIWE message signed with one of our nonces. */
export const verifyWalletSignIn = defineOperation({
  id: "verifyWalletSignIn",
  method: "POST",
  path: "/api/auth/verify",
  root: true,
  summary: "Verify a Sign-In with Ethereum message (spends its nonce)",
  description:
    "Checks an EIP-4361 message for this host, signed (EIP-191) by its address with a nonce from POST /api/auth/nonce, and spends the nonce. It proves wallet control; it issues no key (keys come from POST /register or POST /keys/recover).",
  category: "auth",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "write",
  charged: true,
  idempotency: "exempt",
  request: { body: z.strictObject({ message: z.string().min(1).max(4000), signature: z.string().regex(/^0x[0-9a-fA-F]+$/, "must be 0x + hex") }) },
  response: z.object({ valid: z.literal(true), address: z.string(), chainId: z.number().int().positive() }),
  errors: ["WALLET_AUTH_INVALID"],
  mcpTool: null,
  async handler(ctx, { body }, call) {
    const r = await verifySiwe(ctx.db, call.origin, body.message, body.signature, ctx.clock.now());
    return { valid: true as const, address: r.address, chainId: r.chainId };
  },
});
