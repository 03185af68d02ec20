/** OutcomeToken handlers: market registrations and holder balances from transfers. Upserts only. */
import { ponder } from "ponder:registry";
import { outcomeHolder, outcomeMarket } from "ponder:schema";
import { parseOutcomeAssetId } from "../../decoder/assets";

const ZERO = "0x0000000000000000000000000000000000000000";

ponder.on("OutcomeToken:MarketRegistered", async ({ event, context }) => {
  await context.db.insert(outcomeMarket).values({
    marketId: event.args.marketId,
    market: event.args.market,
    factory: event.args.factory,
    outcomeCount: event.args.outcomeCount,
    blockNumber: event.block.number,
    txHash: event.transaction.hash,
  });
});

async function move(db: Parameters<Parameters<typeof ponder.on>[1]>[0]["context"]["db"], holder: `0x${string}`, tokenId: bigint, delta: bigint) {
  if (holder.toLowerCase() === ZERO || delta === 0n) return;
  // The asset-id rule is the decoder's; the OutcomeToken only mints outcome ids of registered markets.
  const asset = parseOutcomeAssetId(tokenId);
  if (!asset) return;
  await db
    .insert(outcomeHolder)
    .values({ holder, tokenId, marketId: asset.marketId, balance: delta })
    .onConflictDoUpdate((row) => ({ balance: row.balance + delta }));
}

ponder.on("OutcomeToken:TransferSingle", async ({ event, context }) => {
  await move(context.db, event.args.from, event.args.id, -event.args.value);
  await move(context.db, event.args.to, event.args.id, event.args.value);
});

ponder.on("OutcomeToken:TransferBatch", async ({ event, context }) => {
  for (let i = 0; i < event.args.ids.length; i++) {
    await move(context.db, event.args.from, event.args.ids[i], -event.args.values[i]);
    await move(context.db, event.args.to, event.args.ids[i], event.args.values[i]);
  }
});
