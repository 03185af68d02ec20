/**
 * Sign-In with Ethereum (EIP-4361) messages for POST /api/auth/verify: a general wallet check with our nonces. The
 * exact template is ours (the spec leaves it "not shown"); docs/auth.md shows it.
 */
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from "viem/siwe";
import { verifyMessage } from "viem";
import type { SqlRunner } from "../../../../relayer/db/client";
import { ApiError } from "../../../platform/errors/api-error";
import { consumeNonce } from "./nonces";

export const SIWE_STATEMENT = "Sign in to the agent prediction-market API.";

export const SIWE_TEMPLATE = [
  "{domain} wants you to sign in with your Ethereum account:",
  "{walletAddress}",
  "",
  SIWE_STATEMENT,
  "",
  "URI: {origin}",
  "Version: 1",
  "Chain ID: {chainId}",
  "Nonce: {nonce}",
  "Issued At: {issuedAt}",
].join("\n");

export function siweExample(origin: string, chainId: number, address: `0x${string}`, nonce: string, issuedAt: Date): string {
  return createSiweMessage({ domain: new URL(origin).host, address, statement: SIWE_STATEMENT, uri: origin, version: "1", chainId, nonce, issuedAt });
}

/** Verifies a SIWE message for this host and spends its nonce; returns the signer and chain. */
export async function verifySiwe(
  db: SqlRunner,
  origin: string,
  message: string,
  signature: string,
  now: number,
): Promise<{ address: string; chainId: number }> {
  const fields = parseSiweMessage(message);
  if (!fields.address || !fields.nonce || !fields.chainId)
    throw new ApiError("WALLET_AUTH_INVALID", "message is not an EIP-4361 (SIWE) message with address, chain id and nonce", { field: "message" });
  if (!validateSiweMessage({ message: fields, domain: new URL(origin).host, time: new Date(now) })) {
    throw new ApiError("WALLET_AUTH_INVALID", `the SIWE message is for another domain than ${new URL(origin).host} or outside its validity window`, {
      field: "message",
    });
  }
  let valid = false;
  try {
    valid = await verifyMessage({ address: fields.address, message, signature: signature as `0x${string}` });
  } catch {
    valid = false;
  }
  if (!valid) throw new ApiError("WALLET_AUTH_INVALID", "signature is not an EIP-191 signature of message by its address", { field: "signature" });
  if (!(await consumeNonce(db, fields.nonce, "siwe", now))) {
    throw new ApiError("WALLET_AUTH_INVALID", "the nonce is unknown, expired (300 s) or already used; get a fresh one from POST /api/auth/nonce", {
      field: "message",
    });
  }
  return { address: fields.address.toLowerCase(), chainId: fields.chainId };
}
