/**
 * The local chain: a Hardhat node on 127.0.0.1:<port> with a chain id (8453 by default in `npm start`, standing in
 * for Base so that agents sign the same EIP-712 domains as in production), optionally a fork of FORK_URL. `npm start`
 * runs it, and so do the tests that need a real chain, together with the small helpers below (a chain with a fresh
 * CommittedLedger deployed by the dev keys). It is part of the stack's launcher (scripts/stack/), the one place of
 * scripts/ that tests may import (docs/stack.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createPublicClient, createWalletClient, getContractAddress, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY, DEV_TREASURY_ADDRESS } from "../../relayer/dev-accounts";
import { rpcChain } from "../../relayer/rpc-chain";
import { startChild, stopChild, type Child } from "./children";
import { rpcChainId, waitFor } from "./wait";

const ROOT = join(__dirname, "..", "..");

/** `track` is called with the child as soon as it is spawned, so a stop during start-up also stops it. */
export async function startLocalChain(
  opts: { port: number; chainId: number; forkUrl?: string; forkBlock?: number; quiet?: boolean },
  track: (child: Child) => void = () => {},
): Promise<Child> {
  const rpcUrl = `http://127.0.0.1:${opts.port}`;
  if ((await rpcChainId(rpcUrl).catch(() => undefined)) !== undefined) {
    throw new Error(`port ${opts.port} already answers JSON-RPC: stop that chain, set CHAIN_PORT, or point RPC_URL at it`);
  }
  const cli = require.resolve("hardhat/internal/cli/cli.js", { paths: [ROOT] });
  const args = [cli, "node", "--hostname", "127.0.0.1", "--port", String(opts.port)];
  if (opts.forkUrl) args.push("--fork", opts.forkUrl);
  if (opts.forkUrl && opts.forkBlock !== undefined) args.push("--fork-block-number", String(opts.forkBlock));
  const child = startChild("chain", process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, CHAIN_ID: String(opts.chainId), HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" },
    quiet: opts.quiet ?? true,
  });
  track(child);
  const exitedEarly = child.exited.then((code) => {
    throw new Error(`the chain exited (${code}) before it answered`);
  });
  exitedEarly.catch(() => {}); // after start-up, an exit is the owner's business, not an unhandled rejection
  try {
    const id = await Promise.race([waitFor("the local chain", () => rpcChainId(rpcUrl), 60_000, 200), exitedEarly]);
    if (id !== opts.chainId) throw new Error(`the local chain answers chain id ${id}, expected ${opts.chainId}`);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return child;
}

/** The dev treasury in lower case, as the engine and the batcher name it. */
export const TREASURY = DEV_TREASURY_ADDRESS.toLowerCase() as Address;
export const OPERATOR_KEY: Hex = DEV_OPERATOR_KEY;

/** Where the first contract of the dev deployer lands on a fresh chain. */
export const FIRST_LEDGER_ADDRESS = getContractAddress({ from: privateKeyToAccount(DEV_DEPLOYER_KEY).address, nonce: 0n });

/** A Hardhat node with chain id 31337 on `port`. */
export async function startChain(port: number): Promise<{ child: Child; rpcUrl: string; stop: () => Promise<void> }> {
  const child = await startLocalChain({ port, chainId: 31337 });
  return { child, rpcUrl: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

/** Deploys a fresh CommittedLedger (deployer and operator are the dev keys, the treasury the dev treasury). */
export async function deployLedger(rpcUrl: string): Promise<Address> {
  const artifact = JSON.parse(readFileSync(join(ROOT, "artifacts", "contracts", "ledger", "CommittedLedger.sol", "CommittedLedger.json"), "utf8"));
  const transport = http(rpcUrl);
  const client = createPublicClient({ transport });
  const chain = rpcChain(await client.getChainId(), rpcUrl);
  const deployer = privateKeyToAccount(DEV_DEPLOYER_KEY);
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
