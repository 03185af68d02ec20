/**
 * Connects to the RPC and decides which ledger to replay and from which block:
 * - `decode verify`: `--ledger`, else the CommittedLedger of `deployments/<chainId>.json`;
 * - `decode <txHash>`: `--ledger` (the transaction must call it), else the ledger the transaction itself calls.
 *   The transaction is the user's evidence of which ledger they mean, so it wins over a deployments file that
 *   names another ledger (e.g. one `npm start` deployed while `ledger:demo` deployed its own).
 * The scan starts at `--from-block`, else at the deployment block when the ledger is the deployments file's, else 0.
 */
import { createPublicClient, http, isAddress, type Abi, type Address, type Hash, type PublicClient, type Transaction } from "viem";
import { deploymentFile, readContractLocation } from "../deployment";
import { ReplayError } from "../replay/errors";
import { decodeBatchCall } from "../replay/replay";

/** A reachable chain. */
export interface Chain {
  readonly client: PublicClient;
  readonly chainId: number;
}

/** A reachable chain and the ledger to replay. */
export interface Target extends Chain {
  readonly ledger: Address;
  /** First block to scan: `--from-block`, else the deployment block when known, else 0. */
  readonly fromBlock: bigint;
}

/** The CommittedLedger entry of a deployments file. */
export interface Deployment {
  readonly file: string;
  readonly address: Address;
  readonly blockNumber: bigint;
}

/** What the user chose on the command line. */
export interface LedgerFlags {
  readonly ledger?: string;
  readonly fromBlock?: bigint;
}

/** Reads the CommittedLedger of `<dir>/<chainId>.json`; null when absent or naming no CommittedLedger. */
export function readDeployment(dir: string, chainId: number): Deployment | null {
  try {
    const ledger = readContractLocation(dir, chainId, "CommittedLedger");
    return ledger && { file: ledger.file, address: ledger.address, blockNumber: BigInt(ledger.blockNumber) };
  } catch (cause) {
    throw new ReplayError("BAD_INPUT", `${deploymentFile(chainId, dir)} is not valid JSON`, cause);
  }
}

/** Opens the RPC, failing clearly when it is unreachable. */
export async function openChain(rpc: string): Promise<Chain> {
  const client = createPublicClient({ transport: http(rpc, { retryCount: 0, timeout: 10_000 }) }) as PublicClient;
  try {
    return { client, chainId: await client.getChainId() };
  } catch (cause) {
    throw new ReplayError("RPC_UNREACHABLE", `cannot reach the RPC at ${rpc}`, cause);
  }
}

function ledgerFlag(value: string): Address {
  if (!isAddress(value, { strict: false })) throw new ReplayError("BAD_INPUT", `--ledger is not an address: ${value}`);
  return value as Address;
}

const same = (a: string | null | undefined, b: string | null | undefined): boolean => !!a && !!b && a.toLowerCase() === b.toLowerCase();

function startBlock(ledger: Address, deployment: Deployment | null, flags: LedgerFlags): bigint {
  if (flags.fromBlock !== undefined) return flags.fromBlock;
  return deployment && same(deployment.address, ledger) ? deployment.blockNumber : 0n;
}

/** `decode verify`: `--ledger`, else the deployments file's CommittedLedger. */
export function verifyTarget(chain: Chain, flags: LedgerFlags, deployment: Deployment | null): Target {
  const ledger = flags.ledger !== undefined ? ledgerFlag(flags.ledger) : deployment?.address;
  if (!ledger) {
    throw new ReplayError("NO_LEDGER_ADDRESS", `no --ledger given and deployments/${chain.chainId}.json names no CommittedLedger`);
  }
  return { ...chain, ledger, fromBlock: startBlock(ledger, deployment, flags) };
}

/**
 * `decode <txHash>`: the ledger the transaction calls. With `--ledger` the transaction must call that one;
 * without it the transaction's own target is used when it is a CommittedLedger batch call, and `note` is told
 * when the deployments file names a different ledger. The target is checked before the calldata is decoded.
 */
export function txTarget(
  chain: Chain,
  tx: Pick<Transaction, "hash" | "to" | "input" | "blockNumber">,
  abi: Abi,
  flags: LedgerFlags,
  deployment: Deployment | null,
  note: (line: string) => void,
): Target {
  const hash: Hash = tx.hash;
  let ledger: Address;
  if (flags.ledger !== undefined) {
    ledger = ledgerFlag(flags.ledger);
    if (!same(tx.to, ledger))
      throw new ReplayError("NOT_A_BATCH", `transaction ${hash} is not a call to the ledger ${ledger} (it calls ${tx.to ?? "nothing: a contract creation"})`);
  } else {
    if (!tx.to) throw new ReplayError("NOT_A_BATCH", `transaction ${hash} creates a contract; it is not a batch commit`);
    ledger = tx.to;
  }
  if (!decodeBatchCall(abi, tx.input)) {
    throw new ReplayError("NOT_A_BATCH", `transaction ${hash} to ${tx.to} is not a CommittedLedger batch call (commitJournalBatch or commitBatch)`);
  }
  if (flags.ledger === undefined && deployment && !same(deployment.address, ledger)) {
    note(`decode: replaying ${ledger}, the ledger the transaction calls; ${deployment.file} names another ledger (${deployment.address})`);
  }
  if (tx.blockNumber === null) throw new ReplayError("TX_NOT_FOUND", `transaction ${hash} is not mined yet`);
  const fromBlock = startBlock(ledger, deployment, flags);
  if (fromBlock > tx.blockNumber) throw new ReplayError("BAD_INPUT", `--from-block ${fromBlock} is after the transaction's block ${tx.blockNumber}`);
  return { ...chain, ledger, fromBlock };
}
