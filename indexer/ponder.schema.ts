/**
 * The indexer's tables. Amounts stay bigint. Rows are keyed by chain facts (event ids, nonces, holder/token pairs)
 * so a reorg rolls them back exactly.
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
  (table) => ({ byBlock: index().on(table.blockNumber) }),
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
  (table) => ({ byTo: index().on(table.to), byFrom: index().on(table.from) }),
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
