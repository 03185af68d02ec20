/**
 * LMSR factory and market handlers: the market row (created by MarketCreated, then kept current by every trade,
 * redemption and settlement) and one row per trade / redemption. Keyed by chain facts, so reorgs roll back exactly.
 */
import { ponder } from "ponder:registry";
import { intentExecution, lmsrMarket, lmsrRedemption, lmsrTrade } from "ponder:schema";

ponder.on("LmsrFactory:MarketCreated", async ({ event, context }) => {
  const a = event.args;
  await context.db.insert(lmsrMarket).values({
    address: a.market.toLowerCase() as `0x${string}`,
    marketId: a.marketId,
    factory: event.log.address.toLowerCase() as `0x${string}`,
    creator: a.creator.toLowerCase() as `0x${string}`,
    collateral: a.collateral.toLowerCase() as `0x${string}`,
    outcomeCount: a.outcomeCount,
    b: a.b,
    seed: a.seed,
    sellExitFeeBps: a.sellExitFeeBps,
    winningsExitFeeBps: a.winningsExitFeeBps,
    closeTime: a.closeTime,
    questionHash: a.questionHash,
    question: a.question,
    q: Array.from({ length: a.outcomeCount }, () => 0n),
    state: 0,
    tradeCount: 0,
    volume: 0n,
    createdBlock: event.block.number,
    createdAt: event.block.timestamp,
    txHash: event.transaction.hash,
  });
});

ponder.on("LmsrMarket:Trade", async ({ event, context }) => {
  const a = event.args;
  const market = event.log.address.toLowerCase() as `0x${string}`;
  const q = [...a.outstanding];
  await context.db.insert(lmsrTrade).values({
    id: event.id,
    market,
    trader: a.trader.toLowerCase() as `0x${string}`,
    recipient: a.recipient.toLowerCase() as `0x${string}`,
    outcome: a.outcome,
    isBuy: a.isBuy,
    shares: a.shares,
    amount: a.amount,
    fee: a.fee,
    q,
    blockNumber: event.block.number,
    logIndex: event.log.logIndex,
    timestamp: event.block.timestamp,
    txHash: event.transaction.hash,
  });
  await context.db.update(lmsrMarket, { address: market }).set((row) => ({
    q,
    tradeCount: row.tradeCount + 1,
    volume: row.volume + a.amount + a.fee,
    lastTradeAt: event.block.timestamp,
  }));
});

ponder.on("LmsrMarket:Resolved", async ({ event, context }) => {
  await context.db
    .update(lmsrMarket, { address: event.log.address.toLowerCase() as `0x${string}` })
    .set({ state: 1, winningOutcome: event.args.outcome, settledAt: event.block.timestamp });
});

ponder.on("LmsrMarket:Voided", async ({ event, context }) => {
  await context.db.update(lmsrMarket, { address: event.log.address.toLowerCase() as `0x${string}` }).set({ state: 2, settledAt: event.block.timestamp });
});

ponder.on("LmsrMarket:Redeemed", async ({ event, context }) => {
  const a = event.args;
  const market = event.log.address.toLowerCase() as `0x${string}`;
  await context.db.insert(lmsrRedemption).values({
    id: event.id,
    market,
    account: a.account.toLowerCase() as `0x${string}`,
    outcome: a.outcome,
    shares: a.shares,
    payout: a.payout,
    fee: a.fee,
    blockNumber: event.block.number,
    timestamp: event.block.timestamp,
    txHash: event.transaction.hash,
  });
  // Redeeming burns shares and lowers q[outcome] in the contract; keep the projection equal to `outstanding()`.
  await context.db.update(lmsrMarket, { address: market }).set((row) => ({
    q: row.q.map((v, i) => (i === a.outcome ? v - a.shares : v)),
  }));
});

ponder.on("IntentRouter:IntentExecuted", async ({ event, context }) => {
  const a = event.args;
  await context.db.insert(intentExecution).values({
    id: event.id,
    digest: a.digest,
    router: event.log.address.toLowerCase() as `0x${string}`,
    trader: a.trader.toLowerCase() as `0x${string}`,
    market: a.market.toLowerCase() as `0x${string}`,
    outcome: a.outcome,
    isBuy: a.isBuy,
    shares: a.shares,
    amount: a.amount,
    blockNumber: event.block.number,
    timestamp: event.block.timestamp,
    txHash: event.transaction.hash,
  });
});
