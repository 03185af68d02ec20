/** CommittedLedger handlers: batches and the movements legacy batches emit. Inserts only, keyed by chain facts. */
import { ponder } from "ponder:registry";
import { ledgerBatch, ledgerTransfer } from "ponder:schema";

ponder.on("CommittedLedger:JournalBatchCommitted", async ({ event, context }) => {
  await context.db.insert(ledgerBatch).values({
    nonce: event.args.nonce,
    kind: "journal",
    root: event.args.newRoot,
    journalCommitment: event.args.journalCommitment,
    payloadHash: event.args.payloadHash,
    payloadBytes: (event.args.payload.length - 2) / 2,
    txHash: event.transaction.hash,
    blockNumber: event.block.number,
    timestamp: event.block.timestamp,
  });
});

ponder.on("CommittedLedger:BatchCommitted", async ({ event, context }) => {
  await context.db.insert(ledgerBatch).values({
    nonce: event.args.nonce,
    kind: "legacy",
    root: event.args.newRoot,
    matchCount: event.args.matchCount,
    creditCount: event.args.creditCount,
    eventsEmitted: event.args.eventsEmitted,
    txHash: event.transaction.hash,
    blockNumber: event.block.number,
    timestamp: event.block.timestamp,
  });
});

ponder.on("CommittedLedger:TransferSingle", async ({ event, context }) => {
  await context.db.insert(ledgerTransfer).values({
    id: event.id,
    from: event.args.from,
    to: event.args.to,
    assetId: event.args.id,
    amount: event.args.value,
    txHash: event.transaction.hash,
    blockNumber: event.block.number,
  });
});

ponder.on("CommittedLedger:TransferBatch", async ({ event, context }) => {
  await context.db.insert(ledgerTransfer).values(
    event.args.ids.map((assetId, i) => ({
      id: `${event.id}-${i}`,
      from: event.args.from,
      to: event.args.to,
      assetId,
      amount: event.args.values[i],
      txHash: event.transaction.hash,
      blockNumber: event.block.number,
    })),
  );
});
