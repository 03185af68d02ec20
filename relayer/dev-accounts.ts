/**
 * Hardhat's well-known development accounts, the local chain's defaults: #0 deploys, #1 operates the ledger (commits
 * batches, mints PM), #2 receives fees. Their keys are public: never use them off a local chain.
 *
 * They live here, not under scripts/ or test/, because the service's own configuration (api/config.ts) takes them
 * as defaults and the service may import the relayer but neither of those folders (docs/stack.md).
 */
import type { Address, Hex } from "viem";

/** Hardhat dev account #0: deploys the contracts. */
export const DEV_DEPLOYER_KEY: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/** Hardhat dev account #1: the ledger operator. */
export const DEV_OPERATOR_KEY: Hex = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
/** Hardhat dev account #2 (checksummed): the ledger account that receives trading fees. */
export const DEV_TREASURY_ADDRESS: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
