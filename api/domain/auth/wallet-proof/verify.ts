/**
 * Checks one wallet proof: the message follows the template of its kind, names the claimed wallet, carries an EIP-191
 * signature by that wallet (viem `verifyMessage`), and spends a live nonce of ours. Run it inside the transaction
 * that uses the proof, so a proof whose operation then fails (name taken, ...) leaves its nonce unspent.
 */
import { verifyMessage } from "viem";
import type { SqlRunner } from "../../../../relayer/db/client";
import { ApiError } from "../../../platform/errors/api-error";
import { consumeNonce } from "./nonces";
import { parseProofMessage, PROOF_TEMPLATES, type ProofKind } from "./templates";

export interface WalletProof {
  walletAddress: string;
  walletSignature: string;
  signedMessage: string;
}

/** Returns the lower-case wallet the proof authenticates, or throws WALLET_AUTH_INVALID / WALLET_ADDRESS_MISMATCH. */
export async function verifyWalletProof(db: SqlRunner, kind: ProofKind, proof: WalletProof, now: number, agentId?: string): Promise<string> {
  const wallet = proof.walletAddress.toLowerCase();
  const parsed = parseProofMessage(kind, proof.signedMessage);
  const template = PROOF_TEMPLATES[kind].template;
  if (!parsed) {
    throw new ApiError("WALLET_AUTH_INVALID", `signedMessage must be exactly ${template} with a nonce from POST /api/auth/nonce`, {
      field: "signedMessage",
      template,
    });
  }
  if (parsed.wallet !== wallet) {
    throw new ApiError("WALLET_ADDRESS_MISMATCH", `the signed message names ${parsed.wallet}, not walletAddress ${wallet}`, { field: "walletAddress" });
  }
  if (kind === "bind-wallet" && parsed.agentId !== agentId) {
    throw new ApiError("WALLET_AUTH_INVALID", `the signed message names agent ${parsed.agentId}, not this key's agent ${agentId}`, {
      field: "signedMessage",
      template,
    });
  }
  let valid = false;
  try {
    valid = await verifyMessage({ address: wallet as `0x${string}`, message: proof.signedMessage, signature: proof.walletSignature as `0x${string}` });
  } catch {
    valid = false;
  }
  if (!valid)
    throw new ApiError("WALLET_AUTH_INVALID", "walletSignature is not an EIP-191 signature of signedMessage by walletAddress", { field: "walletSignature" });
  if (!(await consumeNonce(db, parsed.nonce, kind, now))) {
    throw new ApiError("WALLET_AUTH_INVALID", "the nonce is unknown, expired (300 s) or already used; get a fresh one from POST /api/auth/nonce", {
      field: "signedMessage",
    });
  }
  return wallet;
}
