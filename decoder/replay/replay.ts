/**
 * Replays the CommittedLedger from genesis: journal batches are decoded and applied op by op; legacy batches
 * apply their transfer events or calldata. After each batch the recomputed root and journal commitment are
 * compared with the chain's, and every ballot reveal is checked against its commitment (./ballots.ts); the first
 * batch that fails a check stops the run and is returned with its location.
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
import { legacyCalldataSteps, transferSteps, type LegacyCredit, type LegacyMatch, type BatchStep, type TransferEvent, opKindOf } from "./legacy";
import { decodeLedgerLog, readLedgerLogs, type LedgerLog } from "./logs";
import { ReplayError } from "./errors";
import { BallotBook, type BallotFailure } from "./ballots";

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
  /**
   * Whether every ballot reveal of the batch opened its STAKE_LOCK's commitment (and no lock was doubled or left
   * unrevealed at finality); independent of `rootOk` and `commitmentOk`. Always true for legacy batches.
   */
  readonly ballotOk: boolean;
  /** The failed ballot checks, in op order; empty when `ballotOk`. */
  readonly ballotFailures: BallotFailure[];
  /** Why the batch could not be applied (undecodable payload, invalid movement, a nonce gap). */
  readonly error?: string;
  /**
   * The operation whose movement failed (a `LedgerMovementError`): its index within the batch (journal ops;
   * legacy calldata matches then credits, or transfer events) and its kind (`CREDIT`, `MATCH MINT`, `TransferSingle`…).
   */
  readonly failedOp?: { readonly index: number; readonly kind: string };
}

/** What {@link replayLedger} needs. */
export interface ReplayOptions {
  readonly client: PublicClient;
  readonly ledger: Address;
  /** First block to scan (default 0); the ledger's deployment block when known. */
  readonly fromBlock?: bigint;
  readonly toBlock?: bigint;
  /** Blocks per getLogs call (default 2,000). */
  readonly chunkSize?: bigint;
  /** Stop after the batch of this transaction. */
  readonly untilTx?: Hash;
  /** After each getLogs chunk of the scan: blocks scanned so far, blocks to scan. */
  readonly onScan?: (doneBlocks: bigint, totalBlocks: bigint) => void;
  /** After each applied batch: batches applied so far, batches found by the scan. */
  readonly onProgress?: (done: number, total: number) => void;
  /** The ledger ABI; defaults to `committedLedgerAbi` from generated/abis.ts. */
  readonly abi?: Abi;
  /**
   * Continue an earlier replay instead of starting at genesis: its end state (mutated in place), journal commitment
   * and last batch nonce. Pair it with `fromBlock` = the earlier report's `toBlock` + 1. A report with a mismatch
   * leaves `state` part-applied: start again from genesis then.
   */
  readonly resume?: ReplayResume;
}

/** Whether a batch passed every check: root, commitment and ballots. */
export function batchOk(batch: BatchResult): boolean {
  return batch.rootOk && batch.commitmentOk && batch.ballotOk;
}

/** Where an earlier replay ended (see {@link ReplayOptions.resume}). */
export interface ReplayResume {
  readonly state: LedgerState;
  readonly commitment: Hex;
  readonly nonce: bigint;
  /** The ballots locked and not yet revealed at that point (mutated in place, like `state`). */
  readonly ballots: BallotBook;
}

/** The end state of a replay. */
export interface ReplayReport {
  readonly state: LedgerState;
  /** The ballots locked and not yet revealed at the end (carry them into a resume). */
  readonly ballots: BallotBook;
  readonly batches: BatchResult[];
  /** The first batch whose root or commitment differs or whose ballot check failed; the replay stopped there. */
  readonly mismatch: BatchResult | null;
  /** The batch of `untilTx`, when asked for and found. */
  readonly target: BatchResult | null;
  /** The last block scanned; without `untilTx` every batch up to it was applied, so a resume starts at the next. */
  readonly toBlock: bigint;
}

const arg = (args: Record<string, unknown>, ...names: string[]): unknown => names.map((n) => args[n]).find((v) => v !== undefined);

async function readAt(opts: ReplayOptions, functionName: string, blockNumber: bigint): Promise<unknown> {
  return opts.client.readContract({ address: opts.ledger, abi: opts.abi ?? committedLedgerAbi(), functionName, blockNumber });
}

/** The batch call of `input`, or null when it is not `commitJournalBatch`/`commitBatch` of the ledger ABI. */
export function decodeBatchCall(abi: Abi, input: Hex): { functionName: "commitJournalBatch" | "commitBatch"; args: readonly unknown[] } | null {
  try {
    const call = decodeFunctionData({ abi, data: input });
    if (call.functionName !== "commitJournalBatch" && call.functionName !== "commitBatch") return null;
    return { functionName: call.functionName, args: (call.args ?? []) as readonly unknown[] };
  } catch {
    return null;
  }
}

/** Applies steps in order; a failing movement is reported with its step's index and kind. */
function applySteps(state: LedgerState, steps: readonly BatchStep[]): { error?: string; failedOp?: { index: number; kind: string } } {
  for (const [index, step] of steps.entries()) {
    try {
      state.applyMovements(step.movements);
    } catch (e) {
      // A LedgerMovementError in practice (a balance leaving int256); anything else is reported the same way.
      const message = e instanceof Error ? e.message : String(e);
      return { error: `op ${index} (${step.kind}) failed: ${message}`, failedOp: { index, kind: step.kind } };
    }
  }
  return {};
}

/** Replays every batch (or up to `untilTx`), stopping at the first mismatch. */
export async function replayLedger(opts: ReplayOptions): Promise<ReplayReport> {
  const { client, ledger } = opts;
  // cacheTime 0: viem caches the block number for a few seconds, which would hide blocks mined since.
  const toBlock = opts.toBlock ?? (await client.getBlockNumber({ cacheTime: 0 }));
  const abi = opts.abi ?? committedLedgerAbi();
  const logs = await readLedgerLogs(client, abi, ledger, opts.fromBlock ?? 0n, toBlock, opts.chunkSize ?? 2000n, opts.onScan);
  const batchLogs = logs.filter((l) => BATCH_EVENTS.has(l.eventName));
  const state = opts.resume?.state ?? new LedgerState();
  const ballots = opts.resume?.ballots ?? new BallotBook();
  const batches: BatchResult[] = [];
  let commitment: Hex = opts.resume?.commitment ?? ZERO_HASH;
  let lastNonce = opts.resume?.nonce ?? 0n;
  let treasury: Address | null = null;
  let target: BatchResult | null = null;
  for (const [i, log] of batchLogs.entries()) {
    const tx = await client.getTransaction({ hash: log.transactionHash });
    // Check the target before decoding: calldata of another contract would only give a raw ABI error.
    if (tx.to?.toLowerCase() !== ledger.toLowerCase())
      throw new ReplayError("NOT_A_BATCH", `batch event of tx ${log.transactionHash} but the transaction does not call the ledger directly`);
    const call = decodeBatchCall(abi, tx.input);
    if (!call) throw new ReplayError("NOT_A_BATCH", `batch event of tx ${log.transactionHash} but its calldata is not a ledger batch call`);
    const args = call.args;
    let result: BatchResult;
    if (call.functionName === "commitJournalBatch") {
      result = await replayJournal(opts, state, ballots, log, args, commitment);
    } else {
      treasury ??= (await readAt(opts, "treasury", log.blockNumber)) as Address;
      result = await replayLegacy(opts, state, log, args, commitment, treasury);
    }
    const expectedNonce = lastNonce + 1n;
    if (result.nonce !== expectedNonce) {
      // Batches were skipped: the scan started after the ledger's first batch (a --from-block too late).
      result = {
        ...result,
        rootOk: false,
        commitmentOk: false,
        error: `expected batch nonce ${expectedNonce} but found ${result.nonce}: earlier batches were not read (scan started at block ${opts.fromBlock ?? 0n})${result.error ? `; ${result.error}` : ""}`,
      };
    }
    commitment = result.computedCommitment;
    lastNonce = result.nonce;
    batches.push(result);
    opts.onProgress?.(i + 1, batchLogs.length);
    if (opts.untilTx && log.transactionHash.toLowerCase() === opts.untilTx.toLowerCase()) target = result;
    if (!batchOk(result)) return { state, ballots, batches, mismatch: result, target, toBlock };
    if (target) break;
  }
  return { state, ballots, batches, mismatch: null, target, toBlock };
}

async function replayJournal(
  opts: ReplayOptions,
  state: LedgerState,
  ballots: BallotBook,
  log: LedgerLog,
  args: readonly unknown[],
  prev: Hex,
): Promise<BatchResult> {
  const [nonce, , newRoot, , , payloadHex] = args as [bigint, Hex, Hex, Hex, Hex, Hex];
  const expectedRoot = (arg(log.args, "newRoot", "root") as Hex | undefined) ?? newRoot;
  const eventCommitment = arg(log.args, "journalCommitment", "newJournalCommitment", "commitment") as Hex | undefined;
  const expectedCommitment = eventCommitment ?? ((await readAt(opts, "journalCommitment", log.blockNumber)) as Hex);
  const base = { nonce, txHash: log.transactionHash, blockNumber: log.blockNumber, kind: "journal" as const, expectedRoot, expectedCommitment };
  let ops: JournalOp[] = [];
  let treasury: Address | null = null;
  let movements: Movement[] = [];
  let error: string | undefined;
  let failedOp: BatchResult["failedOp"];
  try {
    const decoded = decodePayload(hexToBytes(payloadHex));
    ops = decoded.ops;
    treasury = decoded.treasury;
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  if (treasury !== null) {
    const ctx = { treasury };
    const steps = ops.map((op) => ({ kind: opKindOf(op), movements: movementsOf(op, ctx) }));
    movements = steps.flatMap((step) => step.movements);
    ({ error, failedOp } = applySteps(state, steps));
  }
  const ballotFailures = ballots.check(ops).failures;
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
    ballotOk: ballotFailures.length === 0,
    ballotFailures,
    ...(error === undefined ? {} : { error }),
    ...(failedOp === undefined ? {} : { failedOp }),
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
  let steps: BatchStep[];
  if (emitEvents) {
    const receipt = await opts.client.getTransactionReceipt({ hash: log.transactionHash });
    const transfers: TransferEvent[] = [];
    for (const raw of receipt.logs) {
      if (raw.address.toLowerCase() !== opts.ledger.toLowerCase()) continue;
      const decoded = decodeLedgerLog(opts.abi ?? committedLedgerAbi(), raw);
      if (decoded?.eventName === "TransferSingle") {
        const a = decoded.args;
        transfers.push({ event: "TransferSingle", from: a.from as Address, to: a.to as Address, ids: [a.id as bigint], values: [a.value as bigint] });
      } else if (decoded?.eventName === "TransferBatch") {
        const a = decoded.args;
        transfers.push({
          event: "TransferBatch",
          from: a.from as Address,
          to: a.to as Address,
          ids: a.ids as bigint[],
          values: (a.values ?? a.amounts) as bigint[],
        });
      }
    }
    steps = transferSteps(transfers);
  } else {
    steps = legacyCalldataSteps(matches, credits, treasury);
  }
  const movements = steps.flatMap((step) => step.movements);
  const { error, failedOp } = applySteps(state, steps);
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
    ballotOk: true,
    ballotFailures: [],
    ...(error === undefined ? {} : { error }),
    ...(failedOp === undefined ? {} : { failedOp }),
  };
}
