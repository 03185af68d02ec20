/**
 * Replays the CommittedLedger from genesis: journal batches are decoded and applied op by op; legacy batches
 * apply their transfer events or calldata. After each batch the recomputed root and journal commitment are
 * compared with the chain's; the first mismatch stops the run and is returned with its location.
 *
 * Assumes the operator calls the ledger directly (the batch calldata is the transaction input).
 */
import { decodeFunctionData, hexToBytes, keccak256, type Abi, type Address, type Hash, type Hex, type PublicClient } from "viem";
import { committedLedgerAbi } from "./abi";
import { LedgerState } from "../ledger/state";
import type { Movement } from "../ledger/movement";
import { decodePayload } from "../journal/codec";
import { movementsOf } from "../journal/movements";
import type { JournalOp } from "../journal/ops";
import { journalCommitmentOf, ZERO_HASH } from "../journal/commitment";
import { legacyCalldataMovements, transferMovements, type LegacyCredit, type LegacyMatch, type TransferEvent } from "./legacy";
import { decodeLedgerLog, readLedgerLogs, type LedgerLog } from "./logs";
import { ReplayError } from "./errors";

const BATCH_EVENTS = new Set(["JournalBatchCommitted", "BatchCommitted"]);

/** The outcome of one replayed batch. */
export interface BatchResult {
  readonly nonce: bigint;
  readonly txHash: Hash;
  readonly blockNumber: bigint;
  readonly kind: "journal" | "legacy";
  /** Decoded operations (journal batches) . */
  readonly ops: JournalOp[];
  readonly treasury: Address | null;
  readonly movements: Movement[];
  readonly expectedRoot: Hex;
  readonly computedRoot: Hex;
  readonly rootOk: boolean;
  readonly expectedCommitment: Hex;
  readonly computedCommitment: Hex;
  readonly commitmentOk: boolean;
  /** Why the batch could not be applied (undecodable payload, invalid movement). */
  readonly error?: string;
}

/** What {@link replayLedger} needs. */
export interface ReplayOptions {
  readonly client: PublicClient;
  readonly ledger: Address;
  readonly fromBlock?: bigint;
  readonly toBlock?: bigint;
  /** Blocks per getLogs call (default 2,000). */
  readonly chunkSize?: bigint;
  /** Stop after the batch of this transaction. */
  readonly untilTx?: Hash;
  readonly onProgress?: (done: number, total: number) => void;
  /** The ledger ABI; defaults to `committedLedgerAbi` from generated/abis.ts. */
  readonly abi?: Abi;
}

/** The end state of a replay. */
export interface ReplayReport {
  readonly state: LedgerState;
  readonly batches: BatchResult[];
  /** The first batch whose root or commitment differs; the replay stopped there. */
  readonly mismatch: BatchResult | null;
  /** The batch of `untilTx`, when asked for and found. */
  readonly target: BatchResult | null;
}

const arg = (args: Record<string, unknown>, ...names: string[]): unknown => names.map((n) => args[n]).find((v) => v !== undefined);

async function readAt(opts: ReplayOptions, functionName: string, blockNumber: bigint): Promise<unknown> {
  return opts.client.readContract({ address: opts.ledger, abi: opts.abi ?? committedLedgerAbi(), functionName, blockNumber });
}

/** Replays every batch (or up to `untilTx`), stopping at the first mismatch. */
export async function replayLedger(opts: ReplayOptions): Promise<ReplayReport> {
  const { client, ledger } = opts;
  const toBlock = opts.toBlock ?? (await client.getBlockNumber());
  const abi = opts.abi ?? committedLedgerAbi();
  const logs = await readLedgerLogs(client, abi, ledger, opts.fromBlock ?? 0n, toBlock, opts.chunkSize ?? 2000n);
  const batchLogs = logs.filter((l) => BATCH_EVENTS.has(l.eventName));
  const state = new LedgerState();
  const batches: BatchResult[] = [];
  let commitment: Hex = ZERO_HASH;
  let treasury: Address | null = null;
  let target: BatchResult | null = null;
  for (const [i, log] of batchLogs.entries()) {
    const tx = await client.getTransaction({ hash: log.transactionHash });
    const call = decodeFunctionData({ abi, data: tx.input });
    if (tx.to?.toLowerCase() !== ledger.toLowerCase()) throw new ReplayError("NOT_A_BATCH", `batch event of tx ${log.transactionHash} but the transaction does not call the ledger directly`);
    const args = call.args as readonly unknown[];
    let result: BatchResult;
    if (call.functionName === "commitJournalBatch") {
      result = await replayJournal(opts, state, log, args, commitment);
    } else {
      treasury ??= (await readAt(opts, "treasury", log.blockNumber)) as Address;
      result = await replayLegacy(opts, state, log, args, commitment, treasury);
    }
    commitment = result.computedCommitment;
    batches.push(result);
    opts.onProgress?.(i + 1, batchLogs.length);
    if (opts.untilTx && log.transactionHash.toLowerCase() === opts.untilTx.toLowerCase()) target = result;
    if (!result.rootOk || !result.commitmentOk) return { state, batches, mismatch: result, target };
    if (target) break;
  }
  return { state, batches, mismatch: null, target };
}

async function replayJournal(opts: ReplayOptions, state: LedgerState, log: LedgerLog, args: readonly unknown[], prev: Hex): Promise<BatchResult> {
  const [nonce, , newRoot, , , payloadHex] = args as [bigint, Hex, Hex, Hex, Hex, Hex];
  const expectedRoot = (arg(log.args, "newRoot", "root") as Hex | undefined) ?? newRoot;
  const eventCommitment = arg(log.args, "journalCommitment", "newJournalCommitment", "commitment") as Hex | undefined;
  const expectedCommitment = eventCommitment ?? ((await readAt(opts, "journalCommitment", log.blockNumber)) as Hex);
  const base = { nonce, txHash: log.transactionHash, blockNumber: log.blockNumber, kind: "journal" as const, expectedRoot, expectedCommitment };
  let ops: JournalOp[] = [];
  let treasury: Address | null = null;
  const movements: Movement[] = [];
  let error: string | undefined;
  try {
    const decoded = decodePayload(hexToBytes(payloadHex));
    ops = decoded.ops;
    treasury = decoded.treasury;
    for (const op of ops) {
      const moves = movementsOf(op, { treasury });
      state.applyMovements(moves);
      movements.push(...moves);
    }
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const computedRoot = await state.root();
  const computedCommitment = journalCommitmentOf(prev, nonce, computedRoot, keccak256(payloadHex));
  return {
    ...base,
    ops,
    treasury,
    movements,
    computedRoot,
    rootOk: error === undefined && computedRoot.toLowerCase() === expectedRoot.toLowerCase(),
    computedCommitment,
    commitmentOk: error === undefined && computedCommitment.toLowerCase() === expectedCommitment.toLowerCase(),
    ...(error === undefined ? {} : { error }),
  };
}

async function replayLegacy(
  opts: ReplayOptions,
  state: LedgerState,
  log: LedgerLog,
  args: readonly unknown[],
  prev: Hex,
  treasury: Address,
): Promise<BatchResult> {
  const [nonce, , newRoot, matches, credits, emitEvents] = args as [bigint, Hex, Hex, LegacyMatch[], LegacyCredit[], boolean];
  const expectedRoot = (arg(log.args, "newRoot", "root") as Hex | undefined) ?? newRoot;
  let movements: Movement[];
  if (emitEvents) {
    const receipt = await opts.client.getTransactionReceipt({ hash: log.transactionHash });
    const transfers: TransferEvent[] = [];
    for (const raw of receipt.logs) {
      if (raw.address.toLowerCase() !== opts.ledger.toLowerCase()) continue;
      const decoded = decodeLedgerLog(opts.abi ?? committedLedgerAbi(), raw);
      if (decoded?.eventName === "TransferSingle") {
        const a = decoded.args;
        transfers.push({ from: a.from as Address, to: a.to as Address, ids: [a.id as bigint], values: [a.value as bigint] });
      } else if (decoded?.eventName === "TransferBatch") {
        const a = decoded.args;
        transfers.push({ from: a.from as Address, to: a.to as Address, ids: a.ids as bigint[], values: (a.values ?? a.amounts) as bigint[] });
      }
    }
    movements = transferMovements(transfers);
  } else {
    movements = legacyCalldataMovements(matches, credits, treasury);
  }
  let error: string | undefined;
  try {
    state.applyMovements(movements);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const computedRoot = await state.root();
  return {
    nonce,
    txHash: log.transactionHash,
    blockNumber: log.blockNumber,
    kind: "legacy",
    ops: [],
    treasury,
    movements,
    expectedRoot,
    computedRoot,
    rootOk: error === undefined && computedRoot.toLowerCase() === expectedRoot.toLowerCase(),
    // commitBatch leaves the journal commitment unchanged.
    expectedCommitment: prev,
    computedCommitment: prev,
    commitmentOk: true,
    ...(error === undefined ? {} : { error }),
  };
}
