/**
 * The projection's raw rows as both readers return them: bigint columns as decimal strings, addresses lower-case,
 * field names camelCase (Ponder's table columns are snake_case; the SQL reader aliases them).
 */
export interface MarketRow {
  address: string;
  marketId: string;
  factory: string;
  creator: string;
  collateral: string;
  outcomeCount: number;
  b: string;
  seed: string;
  sellExitFeeBps: number;
  winningsExitFeeBps: number;
  closeTime: string;
  questionHash: string;
  question: string;
  q: string[];
  /** 0 open, 1 resolved, 2 voided. */
  state: number;
  winningOutcome: number | null;
  settledAt: string | null;
  tradeCount: number;
  volume: string;
  lastTradeAt: string | null;
  createdBlock: string;
  createdAt: string;
  txHash: string;
}

export interface TradeRow {
  id: string;
  market: string;
  trader: string;
  recipient: string;
  outcome: number;
  isBuy: boolean;
  shares: string;
  amount: string;
  fee: string;
  q: string[];
  blockNumber: string;
  logIndex: number;
  timestamp: string;
  txHash: string;
}

export interface HolderRow {
  holder: string;
  tokenId: string;
  marketId: string;
  balance: string;
}

export interface IntentExecutionRow {
  id: string;
  digest: string;
  router: string;
  trader: string;
  market: string;
  outcome: number;
  isBuy: boolean;
  shares: string;
  amount: string;
  blockNumber: string;
  timestamp: string;
  txHash: string;
}

/** One CommittedLedger batch: `JournalBatchCommitted` (kind "journal") or legacy `BatchCommitted` (kind "legacy"). */
export interface LedgerBatchRow {
  nonce: string;
  kind: "journal" | "legacy";
  /** The new ledger root. */
  root: string;
  /** Journal batches: the chained journal commitment after this batch, the payload's keccak256 and its length. */
  journalCommitment: string | null;
  payloadHash: string | null;
  payloadBytes: number | null;
  /** Legacy batches. */
  matchCount: number | null;
  creditCount: number | null;
  eventsEmitted: boolean | null;
  txHash: string;
  blockNumber: string;
  timestamp: string;
}

export interface MarketFilter {
  /** 0 open, 1 resolved, 2 voided. */
  state?: number;
  creator?: string;
  limit?: number;
  offset?: number;
}

export interface TradeQuery {
  limit: number;
  /** Exclusive cursor "<blockNumber>:<logIndex>" (from a previous page's `nextCursor`). */
  before?: string;
  /** Unix seconds, inclusive. */
  since?: number;
}

/** One interface, two implementations: Ponder's HTTP routes (PGlite) or the Postgres views schema. */
export interface ProjectionReader {
  readonly kind: "ponder-http" | "postgres-views";
  markets(filter: MarketFilter): Promise<MarketRow[]>;
  market(address: string): Promise<MarketRow | null>;
  trades(address: string, q: TradeQuery): Promise<TradeRow[]>;
  holders(address: string): Promise<HolderRow[]>;
  intentExecutions(digest: string): Promise<IntentExecutionRow[]>;
  /** Committed ledger batches, newest nonce first. */
  ledgerBatches(limit: number): Promise<LedgerBatchRow[]>;
}
