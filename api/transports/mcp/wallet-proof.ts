/**
 * Fresh wallet proofs of MCP tools (spec "MCP"): the tool call carries walletAddress (optional when the key has a
 * bound wallet), walletSignature, signatureTimestamp (seconds) and proofNonce, and the signature is EIP-191 over
 *   svc-mcp-auth:{agentId}:{apiKeyId}:{tool}:{scope}:{chainId}:{walletAddress}:{resourceId}:{payloadHash}:{nonce}:{timestamp}
 * Optional scalar fields collapse to `-`; the wallet address is lowercase; `scope` is the operation's first required
 * scope; `resourceId` the value of its first path parameter; `payloadHash` the SHA-256 of the canonical JSON of the
 * tool intent (the arguments without the four proof fields and without idempotencyKey). The nonce (POST
 * /api/auth/nonce) is consumed on the first successful proof; timestamp and nonce are good for 300 seconds.
 */
import { z } from "zod";
import { recoverMessageAddress } from "viem";
import type { SqlRunner } from "../../../relayer/db/client";
import type { KeyPrincipal } from "../../domain/auth/principal";
import { ApiError } from "../../platform/errors/api-error";
import { fieldErrors, invalidPayload } from "../../platform/errors/invalid-payload";
import { payloadHash } from "../../platform/hashing/canonical-json";
import { consumeNonce } from "../../domain/auth/wallet-proof/nonces";
import type { AnyOperation } from "../../registry/types";

export const PROOF_WINDOW_SECONDS = 300;
export const PROOF_FIELDS = ["walletAddress", "walletSignature", "signatureTimestamp", "proofNonce"] as const;
/** Tool arguments that are transport, not intent. */
export const NON_INTENT_FIELDS: readonly string[] = [...PROOF_FIELDS, "idempotencyKey"];

export const proofFieldsSchema = z.object({
  walletAddress: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address")
    .optional()
    .describe("Omit when the key has a bound wallet"),
  walletSignature: z.string().min(1).describe("EIP-191 signature of the svc-mcp-auth challenge"),
  signatureTimestamp: z.number().int().positive().describe("Unix seconds the challenge was signed at"),
  proofNonce: z.string().min(1).max(256).describe("Single-use nonce from POST /api/auth/nonce"),
});

export interface ChallengeFields {
  agentId: string;
  apiKeyId: string;
  tool: string;
  scope?: string | null;
  chainId: number;
  walletAddress: string;
  resourceId?: string | null;
  payloadHash: string;
  nonce: string;
  timestamp: number;
}

const dash = (v: string | number | null | undefined) => (v === undefined || v === null || v === "" ? "-" : String(v));

export function mcpProofMessage(f: ChallengeFields): string {
  return [
    "svc-mcp-auth",
    f.agentId,
    f.apiKeyId,
    f.tool,
    dash(f.scope),
    String(f.chainId),
    f.walletAddress.toLowerCase(),
    dash(f.resourceId),
    f.payloadHash,
    f.nonce,
    String(f.timestamp),
  ].join(":");
}

/** The exact tool intent a proof binds: the arguments without proof fields and idempotency key. */
export function toolIntent(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([k]) => !NON_INTENT_FIELDS.includes(k)));
}

/** Value of the operation's first path parameter in the arguments (the resource the call acts on), if any. */
export function resourceIdOf(op: AnyOperation, args: Record<string, unknown>): string | null {
  const name = /\{([A-Za-z0-9_]+)\}/.exec(op.path)?.[1];
  const v = name ? args[name] : undefined;
  return v === undefined || v === null ? null : String(v);
}

/** The challenge fields of a call, everything but what the caller supplies in the proof. */
export function challengeOf(
  op: AnyOperation,
  principal: KeyPrincipal,
  args: Record<string, unknown>,
  chainId: number,
  walletAddress: string,
  nonce: string,
  timestamp: number,
): ChallengeFields {
  return {
    agentId: principal.agentId,
    apiKeyId: principal.keyId,
    tool: op.mcpTool ?? op.id,
    scope: op.scopes[0] ?? null,
    chainId,
    walletAddress,
    resourceId: resourceIdOf(op, args),
    payloadHash: payloadHash(toolIntent(args)),
    nonce,
    timestamp,
  };
}

/**
 * Verifies the proof of one tool call and consumes its nonce; returns the proving wallet (lowercase).
 * Throws INVALID_PAYLOAD (fields), WALLET_REQUIRED, WALLET_ADDRESS_MISMATCH or WALLET_AUTH_INVALID.
 */
export async function verifyMcpWalletProof(
  db: SqlRunner,
  input: { op: AnyOperation; principal: KeyPrincipal; args: Record<string, unknown>; chainId: number; nowMs: number },
): Promise<`0x${string}`> {
  const parsed = proofFieldsSchema.safeParse(input.args);
  if (!parsed.success) throw invalidPayload(fieldErrors("body", parsed.error));
  const proof = parsed.data;
  const bound = input.principal.walletAddress?.toLowerCase() ?? null;
  const wallet = (proof.walletAddress?.toLowerCase() ?? bound) as `0x${string}` | null;
  if (!wallet) throw new ApiError("WALLET_REQUIRED", "this tool needs a wallet proof: pass walletAddress (the key has no bound wallet)");
  if (bound && wallet !== bound)
    throw new ApiError("WALLET_ADDRESS_MISMATCH", `walletAddress ${wallet} is not the wallet bound to this key`, { field: "walletAddress" });
  const nowSec = Math.floor(input.nowMs / 1000);
  if (Math.abs(nowSec - proof.signatureTimestamp) > PROOF_WINDOW_SECONDS) {
    throw new ApiError(
      "WALLET_AUTH_INVALID",
      `signatureTimestamp ${proof.signatureTimestamp} is outside the ${PROOF_WINDOW_SECONDS} s window around the server time ${nowSec}`,
      { field: "signatureTimestamp" },
    );
  }
  const message = mcpProofMessage(challengeOf(input.op, input.principal, input.args, input.chainId, wallet, proof.proofNonce, proof.signatureTimestamp));
  let signer: string;
  try {
    signer = await recoverMessageAddress({ message, signature: proof.walletSignature as `0x${string}` });
  } catch {
    throw new ApiError("WALLET_AUTH_INVALID", "walletSignature is not a valid EIP-191 signature", { field: "walletSignature" });
  }
  if (signer.toLowerCase() !== wallet) {
    throw new ApiError("WALLET_AUTH_INVALID", "walletSignature does not sign the svc-mcp-auth challenge of this call with this wallet", {
      field: "walletSignature",
      expectedMessage: message,
    });
  }
  // Single-use: consumed only now that the signature is good, so a wrong signature does not burn the nonce.
  if (!(await consumeNonce(db, proof.proofNonce, `mcp:${input.op.mcpTool ?? input.op.id}`, input.nowMs))) {
    throw new ApiError("WALLET_AUTH_INVALID", "proofNonce is unknown, already used or expired (300 s): get a fresh one from POST /api/auth/nonce", {
      field: "proofNonce",
    });
  }
  return wallet;
}
