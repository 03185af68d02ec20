import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { listBatches } from "../../../relayer/journal/store";
import { PUBLIC_READ } from "../discover/common";

const hex32 = z.string().regex(/^0x[0-9a-f]{64}$/);
const batchSchema = z.object({
  nonce: z.string().describe("the CommittedLedger batchNonce this batch set (decimal string)"),
  firstSeq: z.number().int().describe("first journal entry in the batch"),
  lastSeq: z.number().int().describe("last journal entry in the batch (inclusive)"),
  opCount: z.number().int(),
  prevRoot: hex32,
  root: hex32.describe("ledgerRoot after the batch"),
  prevCommitment: hex32,
  commitment: hex32.describe("journalCommitment after the batch"),
  payloadHash: hex32,
  status: z.enum(["pending", "sent", "confirmed"]),
  txHash: hex32.nullable(),
  blockNumber: z.string().nullable(),
  createdAt: z.string().describe("ISO time the batch was built"),
});

/**
 * GET /ledger/batches: the journal batches published (or being published) to the CommittedLedger, newest first, so an
 * auditor can go from a batch to its transaction and replay it with `npx decode` (docs/journal.md).
 */
export const listLedgerBatches = defineOperation({
  id: "listLedgerBatches",
  method: "GET",
  path: "/ledger/batches",
  summary: "Journal batches published to the CommittedLedger (nonce, roots, commitment, tx hash), newest first",
  ...PUBLIC_READ,
  request: {
    query: z.strictObject({
      limit: z.coerce.number().int().min(1).max(200).default(50),
      beforeNonce: z
        .string()
        .regex(/^\d{1,20}$/)
        .optional()
        .describe("page: batches with a lower nonce than this"),
    }),
  },
  response: z.object({ batches: z.array(batchSchema), nextBeforeNonce: z.string().nullable() }),
  mcpTool: "svc_list_ledger_batches",
  async handler(ctx, { query }) {
    const rows = await listBatches(ctx.db, query.limit, query.beforeNonce === undefined ? undefined : BigInt(query.beforeNonce));
    const batches = rows.map((b) => ({
      nonce: b.nonce.toString(),
      firstSeq: b.firstSeq,
      lastSeq: b.lastSeq,
      opCount: b.opCount,
      prevRoot: b.prevRoot,
      root: b.root,
      prevCommitment: b.prevCommitment,
      commitment: b.commitment,
      payloadHash: b.payloadHash,
      status: b.status,
      txHash: b.txHash,
      blockNumber: b.blockNumber === null ? null : b.blockNumber.toString(),
      createdAt: new Date(b.createdAt).toISOString(),
    }));
    const last = rows.at(-1);
    return { batches, nextBeforeNonce: rows.length === query.limit && last ? last.nonce.toString() : null };
  },
});
