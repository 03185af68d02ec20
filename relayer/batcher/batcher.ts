/**
 * The batcher: publishes the journal to CommittedLedger.commitJournalBatch (states and retry rules: docs/journal.md).
 *
 * - A batch row is written (status `pending`) BEFORE anything is sent, with the exact payload, roots and commitment;
 *   every later attempt sends those same bytes. Rows are created in nonce order and never abandoned: the highest
 *   row is driven to `confirmed` before the next is built, so nothing is skipped.
 * - Before each attempt the chain's batchNonce/ledgerRoot/journalCommitment are read. If the chain already holds the
 *   batch (a JournalBatchCommitted of this nonce with this root and commitment), the row is marked confirmed without
 *   resending. If the chain holds something else at this nonce, or its head is not this batch's predecessor, the
 *   batch is STALE: the batcher halts with the reason recorded (someone else commits with the operator key) —
 *   retrying could never succeed and must not paper over a fork.
 * - A chain BEHIND the journal's batches whose head is one of our own batches (or the empty ledger) is caught up: a
 *   local chain restarted empty under a resumed `npm start`, a redeployed ledger, or a reorg that dropped batches.
 *   The stored rows after the chain's head are sent again, in order, with their exact bytes; the contract accepts
 *   each only on its exact predecessor, so the chain ends with the same roots and commitments as before.
 * - RPC errors, timeouts and reverts are retried with capped exponential backoff. expectedNonce makes a resent
 *   transaction harmless: the contract rejects a second commit of the same nonce.
 */
import { bytesToHex, type Address, type Hex } from "viem";
import { applyOps, journalCommitmentOf, type LedgerState, PayloadBuilder, payloadHashOf, ZERO_HASH, type JournalOp } from "../../decoder";
import type { Database } from "../db/client";
import { systemClock, type Clock } from "../clock";
import { batchOf, listBatches, readFrom, type BatchRecord } from "../journal/store";
import { opsFromJson } from "../journal";
import { LedgerChain, type ChainHead } from "./chain";
import type { BatcherLog } from "./log";
import { saveLedgerSnapshot, tipFromJournal, type Cursor } from "./tip";

export type { BatcherLog } from "./log";

export interface BatcherOptions {
  db: Database;
  rpcUrl: string;
  ledger: Address;
  operatorKey: Hex;
  /** Treasury named in every payload header (the engine's treasury). */
  treasury: Address;
  intervalMs: number;
  maxOps: number;
  /**
   * Most bytes of one batch's PMJ5 payload (default {@link DEFAULT_MAX_PAYLOAD_BYTES}): a journal entry larger than
   * that (a market's finality paying every holder) is split across batches at operation boundaries, so every
   * commitJournalBatch stays under the transaction gas cap.
   */
  maxPayloadBytes?: number;
  /** Told each batch once it is confirmed on chain (the resolution bench times payouts with it). */
  onConfirmed?: (batch: BatchRecord) => void;
  clock?: Clock;
  /** Injectable wait between attempts (tests pass a short or recording one). */
  sleep?: (ms: number) => Promise<void>;
  backoff?: { initialMs: number; maxMs: number };
  /** Block of the ledger's deployment: where the search for landed batches starts. */
  fromBlock?: bigint;
  receiptTimeoutMs?: number;
  requestTimeoutMs?: number;
  log?: BatcherLog;
  /**
   * Store the ledger after a batch row once the rows since the last snapshot cover this many journal entries, and at
   * stop (docs/journal.md "Snapshots"), so a start applies only the later rows' ops. 0 or unset: none stored (one
   * stored before is still used: it is checked against its row's root).
   */
  snapshotEvery?: number;
}

/** The chain holds a different history than this batch assumes; the batcher stops. */
export class StaleBatchError extends Error {
  constructor(
    readonly nonce: bigint,
    readonly head: ChainHead,
    detail: string,
  ) {
    super(`batch ${nonce} is stale: ${detail} (chain nonce ${head.nonce}, root ${head.root})`);
    this.name = "StaleBatchError";
  }
}

export class BatcherStoppedError extends Error {
  constructor() {
    super("the batcher was stopped");
    this.name = "BatcherStoppedError";
  }
}

/**
 * The payload budget: commitJournalBatch costs ~40 gas per payload byte (EIP-7623's calldata floor; the event's copy
 * adds ~8 more, measured 13.0M gas for 340 kB on the local node), and a transaction may use at most 2^24 =
 * 16,777,216 gas since Osaka (EIP-7825). 320 kB stays near 12.5M, under the cap with a margin.
 */
export const DEFAULT_MAX_PAYLOAD_BYTES = 320_000;

const quiet: BatcherLog = { info() {}, warn() {}, error() {} };
const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const SELECT = `SELECT nonce::text, first_seq::text, last_seq::text, op_count, prev_root, root, prev_commitment, commitment, payload_hash,
  payload, status, tx_hash, block_number::text, error, attempts, created_at::text, updated_at::text FROM ledger_batches`;

export class Batcher {
  readonly chain: LedgerChain;
  readonly #db: Database;
  readonly #clock: Clock;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #log: BatcherLog;
  /** The ledger after every batch row (whatever its status); the next batch starts from it. Null after a failed build. */
  #tip: LedgerState | null;
  #tipRow: BatchRecord | null;
  #cursor: Cursor;
  /** The parsed ops of the entry at which the last build stopped, when it did not take them all (a split entry). */
  #partial: { seq: number; ops: JournalOp[] } | null = null;
  /** The last build stopped at a limit (ops or bytes) with more entries waiting: the loop builds again at once. */
  #more = false;
  #running: Promise<unknown> = Promise.resolve();
  #halted: Error | null = null;
  #stopped = false;
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  #pendingOps = 0;
  /** Whether the chain's head was compared with the confirmed rows since open (see #catchUp). */
  #headChecked = false;
  /** The row of the newest ledger snapshot stored or restored, and the entry its ops end in (0: none). */
  #snapshotNonce: bigint | null;
  #snapshotSeq: number;

  private constructor(
    private readonly opts: BatcherOptions,
    tip: LedgerState,
    tipRow: BatchRecord | null,
    cursor: Cursor,
    snapshotNonce: bigint | null,
  ) {
    this.#db = opts.db;
    this.#clock = opts.clock ?? systemClock;
    this.#sleep = opts.sleep ?? defaultSleep;
    this.#log = opts.log ?? quiet;
    this.#tip = tip;
    this.#tipRow = tipRow;
    this.#cursor = cursor;
    this.#snapshotNonce = snapshotNonce;
    this.#snapshotSeq = snapshotNonce === null ? 0 : cursor.seq;
    this.chain = new LedgerChain(opts.rpcUrl, opts.ledger, opts.operatorKey, {
      fromBlock: opts.fromBlock,
      receiptTimeoutMs: opts.receiptTimeoutMs,
      requestTimeoutMs: opts.requestTimeoutMs,
    });
  }

  /** Rebuilds the ledger after the last batch row from the journal and checks it against that row's root. */
  static async open(opts: BatcherOptions): Promise<Batcher> {
    const [last] = await opts.db.query<Record<string, unknown>>(`${SELECT} ORDER BY ledger_batches.nonce DESC LIMIT 1`);
    const tipRow = last ? batchOf(last) : null;
    const { tip, cursor, snapshotNonce } = await tipFromJournal(opts.db, opts.treasury, tipRow, opts.log ?? quiet);
    return new Batcher(opts, tip, tipRow, cursor, snapshotNonce);
  }

  /** Why the batcher stopped for good (a stale batch), or null. */
  get halted(): Error | null {
    return this.#halted;
  }

  batches(limit = 50, beforeNonce?: bigint): Promise<BatchRecord[]> {
    return listBatches(this.#db, limit, beforeNonce);
  }

  /** Tells the batcher that `opCount` ops were committed to the journal; a full batch wakes it early. */
  noteAppended(opCount: number): void {
    this.#pendingOps += opCount;
    if (this.#pendingOps >= this.opts.maxOps) this.#wake?.();
  }

  /**
   * Publishes one batch: resumes the highest unconfirmed row, or builds the next from unpublished entries.
   * Resolves with the confirmed row, or null when there was nothing to publish. Calls are serialised.
   */
  publishOnce(): Promise<BatchRecord | null> {
    const run = this.#running.then(() => this.#publishOnce());
    this.#running = run.catch(() => {});
    return run;
  }

  /** Runs until stop(): every intervalMs, or at once when maxOps ops are pending; a full batch is followed at once. */
  start(): void {
    if (this.#loop) return;
    this.#loop = (async () => {
      while (!this.#stopped && !this.#halted) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.opts.intervalMs);
          this.#wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.#wake = null;
        try {
          for (;;) {
            if (this.#stopped) break;
            this.#pendingOps = 0;
            const batch = await this.publishOnce();
            if (!batch || (batch.opCount < this.opts.maxOps && !this.#more)) break;
          }
        } catch (err) {
          if (!(err instanceof BatcherStoppedError)) this.#log.error({ err }, "batcher halted");
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
    await this.#running;
    // The ledger after the last row, so the next start applies nothing.
    if ((this.opts.snapshotEvery ?? 0) > 0 && this.#tipRow && this.#tipRow.nonce !== this.#snapshotNonce) await this.#storeSnapshot();
  }

  /** The ledger after the last row (#tip, #tipRow and #cursor agree between builds); a failure is only logged. */
  async #storeSnapshot(): Promise<void> {
    const tip = this.#tip;
    const row = this.#tipRow;
    if (!tip || !row) return;
    try {
      await saveLedgerSnapshot(this.#db, row.nonce, this.#cursor, tip, this.#clock.now());
      this.#snapshotNonce = row.nonce;
      this.#snapshotSeq = this.#cursor.seq;
    } catch (err) {
      this.#log.warn({ err, nonce: row.nonce.toString() }, "ledger snapshot not stored: the next start applies more ops");
    }
  }

  async #publishOnce(): Promise<BatchRecord | null> {
    if (this.#halted) throw this.#halted;
    if (!this.#headChecked) {
      const caughtUp = await this.#catchUpOnce();
      if (caughtUp) {
        if (this.#tipRow?.nonce === caughtUp.nonce) this.#tipRow = caughtUp;
        return caughtUp;
      }
    }
    let batch = this.#tipRow && this.#tipRow.status !== "confirmed" ? this.#tipRow : await this.#build();
    if (!batch) return null;
    batch = await this.#drive(batch);
    this.#tipRow = batch;
    return batch;
  }

  /**
   * Once after open: a chain behind the last confirmed row is caught up before anything new is built (otherwise a
   * resumed stack on an empty chain would show confirmed batches that no chain holds until the next trade). An RPC
   * failure here is not fatal: the head is checked again by every send attempt (#drive).
   */
  async #catchUpOnce(): Promise<BatchRecord | null> {
    const confirmed = this.#tipRow ? (this.#tipRow.status === "confirmed" ? this.#tipRow.nonce : this.#tipRow.nonce - 1n) : 0n;
    let head: ChainHead;
    try {
      head = await this.chain.head();
    } catch {
      return null;
    }
    this.#headChecked = true;
    try {
      let last = head.nonce < confirmed ? await this.#catchUp(head, confirmed) : null;
      // A row below the tip left pending or sent (the process died while a catch-up sent it): drive it to confirmed;
      // the chain holds it or gets it now (#drive tells which).
      const open = await this.#db.query<Record<string, unknown>>(`${SELECT} WHERE status <> 'confirmed' AND nonce <= $1 ORDER BY nonce`, [
        confirmed.toString(),
      ]);
      for (const row of open) last = await this.#drive(batchOf(row));
      return last;
    } catch (err) {
      if (err instanceof StaleBatchError) {
        this.#halted = err;
        this.#log.error({ nonce: err.nonce.toString(), err: err.message }, "batch stale: batcher halted");
      }
      throw err;
    }
  }

  /** Sends our rows head.nonce+1..upTo again, in order; stale unless the chain's head is one of our batches. */
  async #catchUp(head: ChainHead, upTo: bigint): Promise<BatchRecord> {
    const [ours] = head.nonce === 0n ? [null] : await this.#db.query<Record<string, unknown>>(`${SELECT} WHERE nonce = $1`, [head.nonce.toString()]);
    const at = ours ? batchOf(ours) : null;
    const expected = at ? { root: at.root, commitment: at.commitment } : { root: ZERO_HASH, commitment: ZERO_HASH };
    if (head.nonce !== 0n && !at) throw new StaleBatchError(upTo, head, `the chain holds nonce ${head.nonce}, which this journal never built`);
    if (!same(head.root, expected.root) || !same(head.commitment, expected.commitment)) {
      throw new StaleBatchError(upTo, head, `the chain's batch ${head.nonce} is not this journal's`);
    }
    this.#log.warn(
      { chainNonce: head.nonce.toString(), upTo: upTo.toString() },
      "ledger behind the journal (empty or reset chain, new deployment or reorg): sending its batches again",
    );
    let last: BatchRecord | null = null;
    for (let nonce = head.nonce + 1n; nonce <= upTo; nonce++) {
      const [row] = await this.#db.query<Record<string, unknown>>(`${SELECT} WHERE nonce = $1`, [nonce.toString()]);
      const again = await this.#update(batchOf(row).nonce, { status: "pending", tx_hash: null, block_number: null, error: null });
      last = await this.#drive(again);
    }
    return last!;
  }

  /**
   * The next batch from the ops after the last row: whole entries until maxOps ops, and never more than
   * maxPayloadBytes of payload — an entry that does not fit is split at an operation boundary and the next batch
   * starts with its remaining ops. Null when no ops wait. The ops are applied to the tip in place (no copy of the
   * ledger per batch); a failed build drops the tip, and the next one rebuilds it from the journal.
   */
  async #build(): Promise<BatchRecord | null> {
    if (!this.#tip) ({ tip: this.#tip, cursor: this.#cursor } = await tipFromJournal(this.#db, this.opts.treasury, this.#tipRow, this.#log));
    const tip = this.#tip;
    this.#tip = null; // until this build is done: a throw below leaves it to be rebuilt
    const prev = this.#tipRow;
    const maxBytes = this.opts.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
    const payload = new PayloadBuilder({ treasury: this.opts.treasury });
    const ops: JournalOp[] = [];
    const cursor = { ...this.#cursor };
    const firstSeq = cursor.taken < cursor.total ? cursor.seq : cursor.seq + 1;
    let partial = this.#partial;
    let full = false;
    /** Adds ops[from..] of entry `seq`, as many as fit; returns how far it got. */
    const take = (seq: number, entryOps: JournalOp[], from: number): number => {
      let i = from;
      while (i < entryOps.length && payload.add(entryOps[i], maxBytes)) ops.push(entryOps[i++]);
      if (i < entryOps.length) {
        full = true;
        partial = { seq, ops: entryOps };
      }
      if (i > from || from > 0 || entryOps.length === 0) Object.assign(cursor, { seq, taken: i, total: entryOps.length });
      return i;
    };
    if (cursor.taken < cursor.total) {
      const entryOps = partial?.seq === cursor.seq ? partial.ops : opsFromJson((await readFrom(this.#db, cursor.seq - 1, 1))[0].ops);
      take(cursor.seq, entryOps, cursor.taken);
    }
    while (!full && ops.length < this.opts.maxOps) {
      const page = await readFrom(this.#db, cursor.seq, 1000);
      for (const e of page) {
        if (full || ops.length >= this.opts.maxOps) break;
        take(e.seq, partial?.seq === e.seq ? partial.ops : opsFromJson(e.ops), 0);
      }
      if (page.length < 1000) break;
    }
    if (ops.length === 0) {
      this.#tip = tip;
      return null;
    }
    applyOps(tip, ops, { treasury: this.opts.treasury });
    const nonce = (prev?.nonce ?? 0n) + 1n;
    const prevRoot = prev?.root ?? ZERO_HASH;
    const prevCommitment = prev?.commitment ?? ZERO_HASH;
    const root = await tip.root();
    const payloadBytes = payload.finish();
    const payloadHash = payloadHashOf(payloadBytes);
    const commitment = journalCommitmentOf(prevCommitment, nonce, root, payloadHash);
    const now = this.#clock.now();
    const lastSeq = cursor.seq;
    const [row] = await this.#db.query<Record<string, unknown>>(
      `INSERT INTO ledger_batches (nonce, first_seq, last_seq, op_count, prev_root, root, prev_commitment, commitment, payload_hash, payload, status, attempts, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', 0, $11, $11)
       RETURNING nonce::text, first_seq::text, last_seq::text, op_count, prev_root, root, prev_commitment, commitment, payload_hash, payload, status, tx_hash,
                 block_number::text, error, attempts, created_at::text, updated_at::text`,
      [nonce.toString(), firstSeq, lastSeq, ops.length, prevRoot, root, prevCommitment, commitment, payloadHash, bytesToHex(payloadBytes), now],
    );
    this.#tip = tip;
    this.#cursor = cursor;
    this.#partial = full ? partial : null;
    this.#more = full || ops.length >= this.opts.maxOps;
    this.#tipRow = batchOf(row);
    this.#log.info({ nonce: nonce.toString(), firstSeq, lastSeq, ops: ops.length, bytes: payloadBytes.length }, "batch built");
    const every = this.opts.snapshotEvery ?? 0;
    if (every > 0 && cursor.seq - this.#snapshotSeq >= every) await this.#storeSnapshot();
    return this.#tipRow;
  }

  async #update(
    nonce: bigint,
    set: Partial<{ status: string; tx_hash: string | null; block_number: string | null; error: string | null; attempts: number }>,
  ): Promise<BatchRecord> {
    const cols = Object.keys(set);
    const assignments = cols.map((c, i) => `${c} = $${i + 2}`).concat(`updated_at = $${cols.length + 2}`);
    const [row] = await this.#db.query<Record<string, unknown>>(
      `UPDATE ledger_batches SET ${assignments.join(", ")} WHERE nonce = $1
       RETURNING nonce::text, first_seq::text, last_seq::text, op_count, prev_root, root, prev_commitment, commitment, payload_hash, payload, status, tx_hash,
                 block_number::text, error, attempts, created_at::text, updated_at::text`,
      [nonce.toString(), ...Object.values(set), this.#clock.now()],
    );
    return batchOf(row);
  }

  #confirmed(batch: BatchRecord): BatchRecord {
    try {
      this.opts.onConfirmed?.(batch);
    } catch (err) {
      this.#log.warn({ err }, "onConfirmed listener threw");
    }
    return batch;
  }

  /** Drives one row to confirmed: re-read the chain, send when it is this batch's turn, retry with backoff. */
  async #drive(start: BatchRecord): Promise<BatchRecord> {
    let batch = start;
    const { initialMs, maxMs } = this.opts.backoff ?? { initialMs: 250, maxMs: 30_000 };
    let delay = initialMs;
    for (;;) {
      if (this.#stopped) throw new BatcherStoppedError();
      let head: ChainHead | null = null;
      try {
        head = await this.chain.head();
        if (head.nonce >= batch.nonce) {
          const landed = await this.chain.landed(batch.nonce);
          if (landed && same(landed.root, batch.root) && same(landed.commitment, batch.commitment)) {
            this.#log.info({ nonce: batch.nonce.toString(), txHash: landed.txHash }, "batch confirmed");
            return this.#confirmed(
              await this.#update(batch.nonce, { status: "confirmed", tx_hash: landed.txHash, block_number: landed.blockNumber.toString(), error: null }),
            );
          }
          throw new StaleBatchError(
            batch.nonce,
            head,
            landed ? `the chain holds another batch ${batch.nonce} (tx ${landed.txHash})` : `the chain is past nonce ${batch.nonce} without this batch`,
          );
        }
        if (head.nonce < batch.nonce - 1n) {
          await this.#catchUp(head, batch.nonce - 1n);
          continue;
        }
        if (!same(head.root, batch.prevRoot) || !same(head.commitment, batch.prevCommitment)) {
          throw new StaleBatchError(batch.nonce, head, "the chain's root or journal commitment is not this batch's predecessor");
        }
        batch = await this.#update(batch.nonce, { attempts: batch.attempts + 1 });
        const hash = await this.chain.send({
          nonce: batch.nonce,
          prevRoot: batch.prevRoot,
          root: batch.root,
          prevCommitment: batch.prevCommitment,
          payloadHash: batch.payloadHash,
          payload: batch.payload,
        });
        batch = await this.#update(batch.nonce, { status: "sent", tx_hash: hash });
        const receipt = await this.chain.receipt(hash);
        if (receipt.status === "success") {
          this.#log.info({ nonce: batch.nonce.toString(), txHash: hash }, "batch confirmed");
          return this.#confirmed(await this.#update(batch.nonce, { status: "confirmed", block_number: receipt.blockNumber.toString(), error: null }));
        }
        throw new Error(`transaction ${hash} reverted`);
      } catch (err) {
        const message = err instanceof Error ? ((err as { shortMessage?: string }).shortMessage ?? err.message) : String(err);
        if (err instanceof StaleBatchError) {
          this.#halted = err;
          await this.#update(batch.nonce, { error: err.message }).catch(() => {});
          this.#log.error({ nonce: batch.nonce.toString(), err: err.message }, "batch stale: batcher halted");
          throw err;
        }
        this.#log.warn({ nonce: batch.nonce.toString(), err: message, retryInMs: delay }, "batch attempt failed");
        batch = await this.#update(batch.nonce, { error: message.slice(0, 2000) }).catch(() => batch);
        await this.#sleep(delay);
        delay = Math.min(delay * 2, maxMs);
      }
    }
  }
}
