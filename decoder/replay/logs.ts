/**
 * Reads the CommittedLedger's events over RPC in block-range chunks and decodes them with the generated ABI,
 * ordered by (block, logIndex).
 */
import { decodeEventLog, type Abi, type Address, type Hash, type Log, type PublicClient } from "viem";

/** One decoded ledger event. */
export interface LedgerLog {
  readonly eventName: string;
  readonly args: Record<string, unknown>;
  readonly blockNumber: bigint;
  readonly logIndex: number;
  readonly transactionHash: Hash;
}

/** Decodes a raw log with `abi`; null when the ABI does not know it. */
export function decodeLedgerLog(abi: Abi, log: Log): LedgerLog | null {
  try {
    const decoded = decodeEventLog({ abi, data: log.data, topics: log.topics, strict: false });
    return {
      eventName: decoded.eventName ?? "",
      args: (decoded.args ?? {}) as Record<string, unknown>,
      blockNumber: log.blockNumber!,
      logIndex: log.logIndex!,
      transactionHash: log.transactionHash!,
    };
  } catch {
    return null;
  }
}

/** Every decodable log of `address` in [fromBlock, toBlock], fetched `chunk` blocks at a time, in chain order. */
export async function readLedgerLogs(
  client: PublicClient,
  abi: Abi,
  address: Address,
  fromBlock: bigint,
  toBlock: bigint,
  chunk: bigint,
  onChunk?: (doneBlocks: bigint, totalBlocks: bigint) => void,
): Promise<LedgerLog[]> {
  const out: LedgerLog[] = [];
  const total = toBlock - fromBlock + 1n;
  for (let start = fromBlock; start <= toBlock; start += chunk) {
    const end = start + chunk - 1n < toBlock ? start + chunk - 1n : toBlock;
    const logs = await logsOf(client, address, start, end);
    for (const log of logs) {
      const decoded = decodeLedgerLog(abi, log);
      if (decoded) out.push(decoded);
    }
    onChunk?.(end - fromBlock + 1n, total);
  }
  return out.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
}

/** Whether `err` (or an error it wraps) says the RPC response was too large for the client (viem's 10 MB cap). */
function tooLarge(err: unknown): boolean {
  for (let e = err as { name?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.name === "ResponseBodyTooLargeError") return true;
  }
  return false;
}

/**
 * getLogs of [from, to]; a response too large (batches of a market's payouts carry ~300 kB of payload each) is read
 * again as two halves, down to single blocks.
 */
async function logsOf(client: PublicClient, address: Address, from: bigint, to: bigint): Promise<Log[]> {
  try {
    return await client.getLogs({ address, fromBlock: from, toBlock: to });
  } catch (err) {
    if (from === to || !tooLarge(err)) throw err;
    const mid = from + (to - from) / 2n;
    return [...(await logsOf(client, address, from, mid)), ...(await logsOf(client, address, mid + 1n, to))];
  }
}
