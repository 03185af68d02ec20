/**
 * The resolution read models' one source: the journal. Entries after the projection's cursor are read in order, the
 * ops of markets' lives (state changes, bonds, stakes, payouts, refunds, collections) become rows of `lifecycle_ops`
 * (migration 330), and each new row is handed to the listeners (market data lane, webhooks) once its rows are
 * committed (only the rows this instance inserted: with several instances on one database, each row is published once).
 * Reads call `sync()` first, so an answer always includes every command already journaled; a write to
 * journal_entries wakes it too (db.onWrite), so events go out without a reader, at most BACKGROUND_SYNC_MS after it.
 */
import type { Address } from "viem";
import { OUTCOME_NONE, type JournalOp } from "../../../decoder";
import type { Database, SqlRunner } from "../../../relayer/db/client";
import { opsFromJson } from "../../../relayer/engine";

/** The op types of a market's life the read models keep. */
const KINDS = new Set([
  "MARKET_STATE",
  "RESOLUTION_PAYOUT",
  "VOID_REFUND",
  "BOND_LOCK",
  "BOND_RETURN",
  "BOND_AWARD",
  "BOND_SLASH",
  "STAKE_LOCK",
  "STAKE_RETURN",
  "VOTE_REWARD",
  "BALLOT_REVEAL",
  "VOTE_ESCROW_SWEEP",
  "POOL_WITHDRAW",
  "FEE_SWEEP",
]);
/** Cheap pre-filter on an entry's JSON text: most entries are fills and hold none of these. */
const MARKER_SOURCE = '"type":"(MARKET_STATE|RESOLUTION_PAYOUT|VOID_REFUND|BOND_|STAKE_|VOTE_|BALLOT_REVEAL|POOL_WITHDRAW|FEE_SWEEP)';
/** Tested in Postgres too (`~`; its regular expressions read this one as JavaScript does). */
const MARKER = new RegExp(MARKER_SOURCE);

/** One projected op. */
export interface LifecycleRow {
  entrySeq: number;
  idx: number;
  at: number;
  marketId: bigint;
  kind: string;
  account: Address | null;
  recipient: Address | null;
  side: number | null;
  state: string | null;
  session: number | null;
  shares: bigint | null;
  amount: bigint;
}

export function rowOf(entrySeq: number, idx: number, at: number, op: JournalOp): LifecycleRow | null {
  if (!KINDS.has(op.type) || !("marketId" in op)) return null;
  const o = op as unknown as Record<string, unknown>;
  const big = (k: string) => (typeof o[k] === "bigint" ? (o[k] as bigint) : null);
  const addr = (k: string) => (typeof o[k] === "string" ? ((o[k] as string).toLowerCase() as Address) : null);
  let side: number | null = typeof o.side === "number" ? o.side : null;
  if (op.type === "MARKET_STATE") side = op.outcome === OUTCOME_NONE ? null : op.outcome;
  if (op.type === "BALLOT_REVEAL") side = op.outcome;
  return {
    entrySeq,
    idx,
    at,
    marketId: op.marketId,
    kind: op.type,
    account: addr("account") ?? addr("funder"),
    recipient: addr("recipient"),
    side,
    state: op.type === "MARKET_STATE" ? String(op.state) : null,
    session: typeof o.session === "number" ? o.session : null,
    shares: big("shares"),
    amount: big("payout") ?? big("refund") ?? big("amount") ?? 0n,
  };
}

const INSERT_CHUNK = 2_000;
const COLUMNS = 12;

/**
 * Inserts the rows; returns those this call inserted. Another instance projecting the same entries (scale-out) inserts
 * them first or blocks this insert until it commits: either way each row is returned, so published, exactly once.
 */
async function insertRows(tx: SqlRunner, rows: LifecycleRow[]): Promise<LifecycleRow[]> {
  const inserted: LifecycleRow[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    const params: unknown[] = [];
    const values = chunk.map((r, j) => {
      params.push(
        r.entrySeq,
        r.idx,
        r.at,
        r.marketId.toString(),
        r.kind,
        r.account,
        r.recipient,
        r.side,
        r.state,
        r.session,
        r.shares?.toString() ?? null,
        r.amount.toString(),
      );
      const b = j * COLUMNS;
      return `(${Array.from({ length: COLUMNS }, (_, k) => `$${b + k + 1}`).join(", ")})`;
    });
    const done = await tx.query<{ entry_seq: string; idx: number }>(
      `INSERT INTO lifecycle_ops (entry_seq, idx, at, market_id, kind, account, recipient, side, state, session, shares, amount) VALUES ${values.join(", ")} ON CONFLICT DO NOTHING RETURNING entry_seq::text, idx`,
      params,
    );
    const mine = new Set(done.map((d) => `${d.entry_seq}:${d.idx}`));
    for (const r of chunk) if (mine.has(`${r.entrySeq}:${r.idx}`)) inserted.push(r);
  }
  return inserted;
}

/** Entries read per step (a resolution of a huge market is one entry with one op per holder). */
const PAGE = 200;

/**
 * How long the projection lets journal writes gather before it reads them. Under an order load a write comes with
 * every commit tick, and a read per tick took as much of PGlite's one thread as the tick itself
 * (docs/api-performance.md); fills never wait on it (their reports are the exchange's), and a lifecycle event goes
 * out this much later at most. Reads do not wait for it: they sync first.
 */
const BACKGROUND_SYNC_MS = 50;

export class JournalProjection {
  #running: Promise<void> | null = null;
  #again = false;
  #closed = false;
  #timer: NodeJS.Timeout | null = null;
  readonly #listeners = new Set<(rows: LifecycleRow[]) => void>();
  readonly #offWrite: () => void;

  constructor(
    private readonly db: Database,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    // Only a journal write has anything to project. DDL ("*") is no reason to read: a schema dropped under a running
    // service (test teardown, an operator's reset) would make every read fail on the missing cursor table.
    this.#offWrite = db.onWrite((tables) => {
      if (tables.includes("journal_entries")) this.#syncSoon();
    });
  }

  #syncSoon(): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.sync().catch(this.onError);
    }, BACKGROUND_SYNC_MS);
    this.#timer.unref();
  }

  /** Called with each projected page of rows, in journal order, after they are committed. */
  onRows(listener: (rows: LifecycleRow[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Projects every journal entry written so far; concurrent calls share one run (and one more if asked meanwhile). */
  sync(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        do {
          this.#again = false;
          while (!this.#closed && (await this.#step())) {
            /* next page */
          }
        } while (this.#again && !this.#closed);
      } finally {
        this.#running = null;
      }
    })();
    return this.#running;
  }

  /**
   * One page of entries; false when the cursor reached the journal's end. The cursor and the page come in one read, and
   * only the ops text of entries that hold a lifecycle op crosses over (most entries are fills): a page of fills costs
   * that read and one cursor UPDATE, where it cost five round trips (it runs after every journal write, so it was a
   * third of the database's messages under an order load, docs/api-performance.md).
   */
  async #step(): Promise<boolean> {
    const page = await this.db.query<{ after: string; seq: string | null; at: string | null; ops: string | null }>(
      `SELECT c.last_seq::text AS after, e.seq::text AS seq, e.at::text AS at,
              CASE WHEN e.ops::text ~ $2 THEN e.ops::text END AS ops
         FROM lifecycle_projection_cursor c
         LEFT JOIN LATERAL (SELECT seq, at, ops FROM journal_entries WHERE seq > c.last_seq ORDER BY seq LIMIT $1) e ON true
        WHERE c.id = 1`,
      [PAGE, MARKER_SOURCE],
    );
    const after = page[0]?.after ?? "0";
    const entries = page.filter((e) => e.seq !== null);
    if (entries.length === 0) return false;
    const rows: LifecycleRow[] = [];
    for (const e of entries) {
      if (e.ops === null || !MARKER.test(e.ops)) continue;
      const ops = opsFromJson(e.ops);
      for (let i = 0; i < ops.length; i++) {
        const r = rowOf(Number(e.seq), i, Number(e.at), ops[i]!);
        if (r) rows.push(r);
      }
    }
    const last = entries[entries.length - 1]!.seq;
    const advance = (run: SqlRunner) => run.query(`UPDATE lifecycle_projection_cursor SET last_seq = $1 WHERE id = 1 AND last_seq = $2`, [last, after]);
    let mine: LifecycleRow[] = [];
    if (rows.length === 0) await advance(this.db);
    else {
      mine = await this.db.transaction(async (tx) => {
        const inserted = await insertRows(tx, rows);
        await advance(tx);
        return inserted;
      });
    }
    if (mine.length > 0) {
      for (const l of this.#listeners) {
        try {
          l(mine);
        } catch (err) {
          this.onError(err);
        }
      }
    }
    return entries.length === PAGE;
  }

  /** Stops projecting; a run still going is awaited, and its failure (already reported to onError) does not fail close. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#offWrite();
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running?.catch(() => {});
  }
}
