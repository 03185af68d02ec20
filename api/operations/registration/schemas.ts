/** Request pieces shared by the registration, upgrade and key operations. */
import { z } from "zod";

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
