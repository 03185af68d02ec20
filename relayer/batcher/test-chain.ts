/** Test helper: a real Hardhat node with a fresh CommittedLedger (deployer and operator are the dev keys). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createPublicClient, createWalletClient, getContractAddress, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY } from "../../api/config";
import { startLocalChain } from "../../scripts/stack/chain";
import { stopChild, type Child } from "../../scripts/stack/children";
import { rpcChain } from "../rpc-chain";

export const TREASURY = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc" as Address;
export const OPERATOR_KEY = DEV_OPERATOR_KEY as Hex;

/** Where the first contract of the dev deployer lands on a fresh chain. */
export const FIRST_LEDGER_ADDRESS = getContractAddress({ from: privateKeyToAccount(DEV_DEPLOYER_KEY as Hex).address, nonce: 0n });

export async function startChain(port: number): Promise<{ child: Child; rpcUrl: string; stop: () => Promise<void> }> {
  const child = await startLocalChain({ port, chainId: 31337 });
  return { child, rpcUrl: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

export async function deployLedger(rpcUrl: string): Promise<Address> {
  const artifact = JSON.parse(readFileSync(join(__dirname, "..", "..", "artifacts", "contracts", "ledger", "CommittedLedger.sol", "CommittedLedger.json"), "utf8"));
  const transport = http(rpcUrl);
  const client = createPublicClient({ transport });
  const chain = rpcChain(await client.getChainId(), rpcUrl);
  const deployer = privateKeyToAccount(DEV_DEPLOYER_KEY as Hex);
  const wallet = createWalletClient({ chain, account: deployer, transport });
  const hash = await wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [deployer.address, privateKeyToAccount(OPERATOR_KEY).address, TREASURY],
  });
  const receipt = await createPublicClient({ chain, transport }).waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error("CommittedLedger deployment failed");
  return receipt.contractAddress;
}
