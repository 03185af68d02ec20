/**
 * The indexer's tables. Amounts stay bigint. Rows are keyed by chain facts (event ids, nonces, holder/token pairs)
 * so a reorg rolls them back exactly. Indexes follow the reads (api/domain/onchain/sql-reader.ts, indexer/src/api) and
 * nothing else, since every index costs each indexed event a write; docs/indexer.md lists which read uses which.
 */
import { index, onchainTable, primaryKey } from "ponder";

/** One row per committed ledger batch, journal or legacy. */
export const ledgerBatch = onchainTable(
  "ledger_batch",
  (t) => ({
    nonce: t.bigint().primaryKey(),
    kind: t.text().notNull(), // "journal" | "legacy"
    root: t.hex().notNull(),
    journalCommitment: t.hex(),
    payloadHash: t.hex(),
    payloadBytes: t.integer(),
    matchCount: t.integer(),
    creditCount: t.integer(),
    eventsEmitted: t.boolean(),
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
  }),
  // Read newest first by nonce: the primary key serves it.
);

/** ERC-1155 movements a legacy batch emitted (zero address = supply account). */
export const ledgerTransfer = onchainTable(
  "ledger_transfer",
  (t) => ({
    id: t.text().primaryKey(),
    from: t.hex().notNull(),
    to: t.hex().notNull(),
    assetId: t.bigint().notNull(),
    amount: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
  }),
  // No read filters transfers yet; add the index with the read.
);

/** Markets registered in the shared OutcomeToken. */
export const outcomeMarket = onchainTable("outcome_market", (t) => ({
  marketId: t.bigint().primaryKey(),
  market: t.hex().notNull(),
  factory: t.hex().notNull(),
  outcomeCount: t.integer().notNull(),
  blockNumber: t.bigint().notNull(),
  txHash: t.hex().notNull(),
}));

/** Outcome-token balances per holder and token id, kept from transfers. */
export const outcomeHolder = onchainTable(
  "outcome_holder",
  (t) => ({
    holder: t.hex().notNull(),
    tokenId: t.bigint().notNull(),
    marketId: t.bigint().notNull(),
    balance: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.holder, table.tokenId] }), byMarket: index().on(table.marketId) }),
);

/** LMSR markets created by the factories, with their live state (outstanding shares `q`, lifecycle, totals). */
export const lmsrMarket = onchainTable(
  "lmsr_market",
  (t) => ({
    address: t.hex().primaryKey(),
    marketId: t.bigint().notNull(),
    factory: t.hex().notNull(),
    creator: t.hex().notNull(),
    collateral: t.hex().notNull(),
    outcomeCount: t.integer().notNull(),
    b: t.bigint().notNull(),
    seed: t.bigint().notNull(),
    sellExitFeeBps: t.integer().notNull(),
    winningsExitFeeBps: t.integer().notNull(),
    closeTime: t.bigint().notNull(),
    questionHash: t.hex().notNull(),
    question: t.text().notNull(),
    /** Outstanding shares per outcome after the last trade or redemption. */
    q: t.bigint().array().notNull(),
    /** 0 open, 1 resolved, 2 voided (the contract's `state`). */
    state: t.integer().notNull(),
    winningOutcome: t.integer(),
    settledAt: t.bigint(),
    tradeCount: t.integer().notNull(),
    /** Collateral paid by buyers plus gross proceeds of sellers. */
    volume: t.bigint().notNull(),
    lastTradeAt: t.bigint(),
    createdBlock: t.bigint().notNull(),
    createdAt: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  // The list reads `ORDER BY created_block DESC, address` with an optional `state` or `creator` filter (one index
  // each, ordered exactly like the read — DESC means NULLS FIRST in Postgres — so a page is an index range without a
  // sort); single markets and the holders join go by address (primary key).
  (table) => ({
    byCreated: index().on(table.createdBlock.desc().nullsFirst(), table.address),
    byStateCreated: index().on(table.state, table.createdBlock.desc().nullsFirst(), table.address),
    byCreatorCreated: index().on(table.creator, table.createdBlock.desc().nullsFirst(), table.address),
  }),
);

/** One row per LmsrMarket Trade event; `q` is the outstanding vector right after it (prices follow from it). */
export const lmsrTrade = onchainTable(
  "lmsr_trade",
  (t) => ({
    id: t.text().primaryKey(),
    market: t.hex().notNull(),
    trader: t.hex().notNull(),
    recipient: t.hex().notNull(),
    outcome: t.integer().notNull(),
    isBuy: t.boolean().notNull(),
    shares: t.bigint().notNull(),
    /** Cost paid (buy) or net proceeds (sell). */
    amount: t.bigint().notNull(),
    fee: t.bigint().notNull(),
    q: t.bigint().array().notNull(),
    blockNumber: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
    timestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  // Trades of one market newest first, paged by (block, logIndex); `since` filters inside that range.
  (table) => ({ byMarketTime: index().on(table.market, table.blockNumber, table.logIndex) }),
);

/** Redemptions after resolution or void. */
export const lmsrRedemption = onchainTable(
  "lmsr_redemption",
  (t) => ({
    id: t.text().primaryKey(),
    market: t.hex().notNull(),
    account: t.hex().notNull(),
    outcome: t.integer().notNull(),
    shares: t.bigint().notNull(),
    payout: t.bigint().notNull(),
    fee: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  // No read yet; add the index with the read.
);

/** Signed intents the routers executed (one row per leg; a basket's legs share a digest). */
export const intentExecution = onchainTable(
  "intent_execution",
  (t) => ({
    id: t.text().primaryKey(),
    digest: t.hex().notNull(),
    router: t.hex().notNull(),
    trader: t.hex().notNull(),
    market: t.hex().notNull(),
    outcome: t.integer().notNull(),
    isBuy: t.boolean().notNull(),
    shares: t.bigint().notNull(),
    amount: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  // Read by digest (GET /trade/intent/{digest}).
  (table) => ({ byDigest: index().on(table.digest) }),
);
