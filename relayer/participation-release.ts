/**
 * PM's participation release as the chain sees it (docs/participation-release.md): the release's id, the community
 * pool the distributor is stocked with, and the EIP-712 voucher the service signs and `ParticipationDistributor`
 * checks. Here, not under api/, because the deployment (relayer/deploy.ts) stocks the pool and the service signs.
 */
import { keccak256, toHex, type Address, type Hex } from "viem";

/** The release's id on `chainId`: one release per chain, version 1. */
export function participationReleaseId(chainId: number): Hex {
  return keccak256(toHex(`pm-participation-release:v1:${chainId}`));
}

/** PM minted to the distributor at deployment: the whole community pool (1,000,000 PM, 6 decimals). */
export const COMMUNITY_POOL_WEI = 1_000_000_000_000n;

export const VOUCHER_TYPES = {
  Voucher: [
    { name: "identity", type: "bytes32" },
    { name: "recipient", type: "address" },
    { name: "cumulativeAmount", type: "uint256" },
    { name: "intentId", type: "bytes32" },
    { name: "expiresAt", type: "uint64" },
  ],
} as const;

export interface Voucher {
  identity: Hex;
  recipient: Address;
  cumulativeAmount: bigint;
  intentId: Hex;
  expiresAt: bigint;
}

/** The EIP-712 domain of the distributor at `address`. */
export function distributorDomain(chainId: number, address: Address) {
  return { name: "ParticipationDistributor", version: "1", chainId, verifyingContract: address } as const;
}

/** The voucher's bytes32 keys: an identity's (its uuid) and an intent's (its id string), hashed. */
export const identityKey = (identityId: string): Hex => keccak256(toHex(`identity:${identityId}`));
export const intentKey = (intentId: string): Hex => keccak256(toHex(`intent:${intentId}`));
