/**
 * Council acts are signed by an appointed member's wallet with EIP-712 (docs/resolution.md "Council"). The typed data
 * names the market, its vote session and the act, so a signature acts once: a decide cannot be replayed on another
 * market, and a restart of session 1 cannot restart session 2. The API recovers the signer; the engine checks the
 * signer is in the council the operator appointed (setCouncil) and journals the signature: the public record.
 */
import { recoverTypedDataAddress, type Address, type Hex } from "viem";
import { ApiError } from "../../platform/errors/api-error";

export const COUNCIL_DOMAIN_NAME = "PM Resolution Council";
export const COUNCIL_DOMAIN_VERSION = "1";

export const COUNCIL_TYPES = {
  CouncilAct: [
    { name: "market", type: "address" },
    { name: "marketId", type: "uint64" },
    { name: "session", type: "uint16" },
    { name: "action", type: "string" },
    { name: "outcome", type: "string" },
  ],
} as const;

export interface CouncilActMessage {
  market: Address;
  marketId: bigint;
  session: number;
  action: "decide" | "restart";
  /** decide: an outcome index as decimal digits, or "void"; restart: "". */
  outcome: string;
}

/** The typed data a member signs (viem's signTypedData takes it as is). */
export function councilTypedData(chainId: number, message: CouncilActMessage) {
  return {
    domain: { name: COUNCIL_DOMAIN_NAME, version: COUNCIL_DOMAIN_VERSION, chainId },
    types: COUNCIL_TYPES,
    primaryType: "CouncilAct" as const,
    message,
  };
}

/** The signer of a council act, which must be `member`; FORBIDDEN (reason BAD_SIGNATURE) otherwise. */
export async function verifyCouncilSignature(chainId: number, message: CouncilActMessage, member: Address, signature: Hex): Promise<void> {
  let signer: Address;
  try {
    signer = await recoverTypedDataAddress({ ...councilTypedData(chainId, message), signature });
  } catch (err) {
    throw new ApiError("FORBIDDEN", `the signature does not recover: ${(err as Error).message}`, { reason: "BAD_SIGNATURE" });
  }
  if (signer.toLowerCase() !== member.toLowerCase()) {
    throw new ApiError("FORBIDDEN", `the signature is by ${signer.toLowerCase()}, not by member ${member.toLowerCase()}`, { reason: "BAD_SIGNATURE" });
  }
}
