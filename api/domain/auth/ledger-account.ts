/**
 * The ledger account of an agent (engine interface "Accounts"): its wallet when it registered with one, else
 * `0x` + the last 20 bytes of keccak256("svc-agent:" + agentId). Chosen once at creation and never moved.
 */
import { keccak256, toBytes } from "viem";

export function derivedLedgerAccount(agentId: string): string {
  return `0x${keccak256(toBytes(`svc-agent:${agentId}`)).slice(-40)}`;
}

export function ledgerAccountOf(agentId: string, walletAddress: string | null): string {
  return walletAddress ? walletAddress.toLowerCase() : derivedLedgerAccount(agentId);
}
