/**
 * Reads the projection from Postgres through the stable views schema `indexer_<chainId>` that `ponder start
 * --views-schema` keeps pointing at the live instance's tables (a reindex drops and renames instance tables; the
 * views survive). Columns are Ponder's snake_case; the selects alias them to the rows' camelCase.
 */
import type { SqlRunner } from "../../../relayer/db/client";
import type { HolderRow, IntentExecutionRow, LedgerBatchRow, MarketFilter, MarketRow, ProjectionReader, TradeQuery, TradeRow } from "./rows";

const MARKET_COLS = `address, market_id::text AS "marketId", factory, creator, collateral, outcome_count AS "outcomeCount", b::text AS b,
  seed::text AS seed, sell_exit_fee_bps AS "sellExitFeeBps", winnings_exit_fee_bps AS "winningsExitFeeBps", close_time::text AS "closeTime",
  question_hash AS "questionHash", question, q::text[] AS q, state, winning_outcome AS "winningOutcome", settled_at::text AS "settledAt",
  trade_count AS "tradeCount", volume::text AS volume, last_trade_at::text AS "lastTradeAt", created_block::text AS "createdBlock",
  created_at::text AS "createdAt", tx_hash AS "txHash"`;
const BATCH_COLS = `nonce::text AS nonce, kind, root, journal_commitment AS "journalCommitment", payload_hash AS "payloadHash",
  payload_bytes AS "payloadBytes", match_count AS "matchCount", credit_count AS "creditCount", events_emitted AS "eventsEmitted",
  tx_hash AS "txHash", block_number::text AS "blockNumber", timestamp::text AS timestamp`;
const TRADE_COLS = `id, market, trader, recipient, outcome, is_buy AS "isBuy", shares::text AS shares, amount::text AS amount, fee::text AS fee,
  q::text[] AS q, block_number::text AS "blockNumber", log_index AS "logIndex", timestamp::text AS timestamp, tx_hash AS "txHash"`;

export class PostgresViewsReader implements ProjectionReader {
  readonly kind = "postgres-views" as const;
  private readonly s: string;
  constructor(
    private readonly db: SqlRunner,
    viewsSchema: string,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(viewsSchema)) throw new Error(`bad views schema ${viewsSchema}`);
    this.s = `"${viewsSchema}"`;
  }

  async markets(f: MarketFilter): Promise<MarketRow[]> {
    // Only the filters given go into the text, so every variant is one plain index range (indexer/ponder.schema.ts):
    // `($1 IS NULL OR state = $1)` would leave a prepared statement's generic plan unable to use the state index.
    const params: unknown[] = [];
    const where: string[] = [];
    if (f.state !== undefined) where.push(`state = $${params.push(f.state)}`);
    if (f.creator !== undefined) where.push(`creator = $${params.push(f.creator.toLowerCase())}`);
    const limit = `$${params.push(f.limit ?? 100)}`;
    const offset = `$${params.push(f.offset ?? 0)}`;
    return this.db.query<MarketRow>(
      `SELECT ${MARKET_COLS} FROM ${this.s}.lmsr_market ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY created_block DESC, address LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
  }
  async market(address: string): Promise<MarketRow | null> {
    const rows = await this.db.query<MarketRow>(`SELECT ${MARKET_COLS} FROM ${this.s}.lmsr_market WHERE address = $1`, [address.toLowerCase()]);
    return rows[0] ?? null;
  }
  async trades(address: string, q: TradeQuery): Promise<TradeRow[]> {
    const [b, l] = q.before ? q.before.split(":") : [null, null];
    return this.db.query<TradeRow>(
      `SELECT ${TRADE_COLS} FROM ${this.s}.lmsr_trade WHERE market = $1
         AND ($2::numeric IS NULL OR block_number < $2::numeric OR (block_number = $2::numeric AND log_index < $3::int))
         AND ($4::numeric IS NULL OR timestamp >= $4::numeric)
       ORDER BY block_number DESC, log_index DESC LIMIT $5`,
      [address.toLowerCase(), b, l, q.since ?? null, q.limit],
    );
  }
  async holders(address: string): Promise<HolderRow[]> {
    return this.db.query<HolderRow>(
      `SELECT h.holder, h.token_id::text AS "tokenId", h.market_id::text AS "marketId", h.balance::text AS balance
       FROM ${this.s}.outcome_holder h JOIN ${this.s}.lmsr_market m ON m.market_id = h.market_id
       WHERE m.address = $1 AND h.balance <> 0`,
      [address.toLowerCase()],
    );
  }
  async intentExecutions(digest: string): Promise<IntentExecutionRow[]> {
    return this.db.query<IntentExecutionRow>(
      `SELECT id, digest, router, trader, market, outcome, is_buy AS "isBuy", shares::text AS shares, amount::text AS amount,
         block_number::text AS "blockNumber", timestamp::text AS timestamp, tx_hash AS "txHash"
       FROM ${this.s}.intent_execution WHERE digest = $1 ORDER BY id`,
      [digest.toLowerCase()],
    );
  }
  async ledgerBatches(limit: number): Promise<LedgerBatchRow[]> {
    // `b.nonce`, not `nonce`: a bare name in ORDER BY is the output column, here nonce::text, which sorted "9" above
    // "10" (the newest batch read wrong past nine; test/faults/indexer-restart.test.ts on Postgres).
    return this.db.query<LedgerBatchRow>(`SELECT ${BATCH_COLS} FROM ${this.s}.ledger_batch b ORDER BY b.nonce DESC LIMIT $1`, [limit]);
  }
}
