/**
 * The batcher's own configuration: what the service passes in (operator key, RPC, interval, batch size, the ledger
 * and its deployment block, the treasury). Checked with zod once, here, so a bad value fails at start naming the
 * field; the relayer never reads the service's configuration, the environment or the deployment file itself. The
 * engine must use the same treasury (the payload header names the fee sink).
 */
import { z } from "zod";
import type { Database } from "../db/client";
import { Batcher, type BatcherLog, type BatcherOptions } from "./batcher";

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be an address (0x + 40 hex digits)");

export const batcherConfigSchema = z.object({
  /** JSON-RPC URL of the chain that holds the ledger. */
  rpcUrl: z.string().url(),
  /** The ledger operator's key: signs every commitJournalBatch. */
  operatorKey: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x followed by 64 hex digits")
    .transform((v) => v as `0x${string}`),
  /** How often pending journal operations are published (ms). */
  intervalMs: z.number().int().min(50),
  /** A batch is published early once this many operations are pending. */
  maxOps: z.number().int().min(1),
  /** Journal entries between two ledger snapshots (0: none; docs/journal.md "Snapshots"). */
  snapshotEvery: z.number().int().min(0).optional(),
  /** The CommittedLedger's address. */
  ledger: address.transform((v) => v as `0x${string}`),
  /** The ledger's deployment block: where the search for landed batches starts. */
  fromBlock: z.bigint().nonnegative(),
  /** The fee sink named in every payload header; compared in lower case. */
  treasury: address.transform((v) => v.toLowerCase() as `0x${string}`),
});

/** What the service passes in (before checking). */
export type BatcherConfig = z.input<typeof batcherConfigSchema>;

/** A config field that cannot be used; names the field. */
export class BatcherConfigError extends Error {
  override name = "BatcherConfigError";
}

/** The batcher's options from its configuration; throws BatcherConfigError naming the first bad field. */
export function batcherOptionsFrom(db: Database, config: BatcherConfig, log?: BatcherLog): BatcherOptions {
  const parsed = batcherConfigSchema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BatcherConfigError(`batcher configuration: ${issue.path.join(".")} ${issue.message}`);
  }
  const c = parsed.data;
  return {
    db,
    rpcUrl: c.rpcUrl,
    ledger: c.ledger,
    fromBlock: c.fromBlock,
    operatorKey: c.operatorKey,
    treasury: c.treasury,
    intervalMs: c.intervalMs,
    maxOps: c.maxOps,
    snapshotEvery: c.snapshotEvery,
    log,
  };
}

/** Opens (rebuilds) the batcher; call `start()` to run it and `stop()` on shutdown. */
export function openBatcher(db: Database, config: BatcherConfig, log?: BatcherLog): Promise<Batcher> {
  return Batcher.open(batcherOptionsFrom(db, config, log));
}
