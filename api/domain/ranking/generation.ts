/**
 * A published generation of the leaderboard: the journal's trading figures at each period's start and end, the
 * displayed prices (marks) at those instants, and the catalog facts (category, collateral, creator) of each market.
 * Every board of one generation ranks over the same instants; a reader pins one by its id to page through it.
 *
 * Generations are built incrementally: the pass keeps its state and the snapshots it took, and the next build reads
 * only the entries journaled since. A snapshot at a past instant never changes, since the journal only grows forward
 * in time (an entry's `at` is the engine's clock when it applied the command, and seq follows it).
 */
import type { SqlRunner } from "../../../relayer/db/client";
import { readOpsFrom } from "../../../relayer/journal/store";
import { opsFromJson } from "../../../relayer/engine";
import { applyEntry, emptyState, snapshotOf, type Marks, type PassState } from "./trading-pass";
import { boundsOf, PERIODS, type PeriodBounds, type PeriodKind, type Season } from "./periods";
import type { PassCheckpoint } from "./pass-checkpoint";

/** What the catalog says of a committed market. */
export interface MarketFacts {
  address: string;
  category: string;
  collateral: { symbol: string; decimals: number };
  creator: string;
  createdAt: number;
}

/** One period of a generation: the pass's figures and the marks at its start (null: from nothing) and its end. */
export interface PeriodFigures {
  bounds: PeriodBounds;
  start: { state: PassState; marks: Marks } | null;
  end: { state: PassState; marks: Marks };
}

export interface Generation {
  /** Its id (./leaderboard.ts `uuidV7`): its instant and last seq, which is all a rebuild needs. */
  id: string;
  /** The instant the generation stands at (epoch ms): the end of every period still running. */
  asOf: number;
  /** The last journal entry it includes. */
  lastSeq: number;
  periods: Record<PeriodKind, PeriodFigures>;
  /** By engine market id (decimal string). */
  markets: ReadonlyMap<string, MarketFacts>;
}

const PAGE = 5_000;
/** The catalog records a fill a moment after its commit (api/domain/venue/trade-recorder.ts): a minute is ample. */
const MARKS_SETTLE_MS = 60_000;

/** A generation's content, before the service names it. */
export type GenerationFigures = Omit<Generation, "id">;

/** The figures of the journal as they stood at each instant asked for, kept from one build to the next. */
export class GenerationBuilder {
  #state: PassState = emptyState();
  #lastSeq = 0;
  /** Instant up to which (inclusive) the journal has been applied. */
  #appliedTo = Number.NEGATIVE_INFINITY;
  #snaps = new Map<number, PassState>();
  /** Marks at past boundaries, once the catalog has surely recorded every trade before them. */
  #settledMarks = new Map<number, Marks>();

  constructor(
    private readonly db: SqlRunner,
    private readonly chainId: number,
    private readonly season: Season,
  ) {}

  /** The last journal entry applied (0 before any). */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Starts from a checkpoint (./pass-checkpoint.ts) instead of the journal's start; only before the first build. */
  restore(c: PassCheckpoint): void {
    if (this.#lastSeq !== 0) throw new Error("GenerationBuilder.restore after the journal was read");
    this.#state = c.state;
    this.#lastSeq = c.lastSeq;
    this.#appliedTo = c.appliedTo;
    this.#snaps = new Map(c.snaps);
  }

  /**
   * What the pass holds now, frozen (snapshots, which the pass never changes), for `encodeCheckpoint`; null before any
   * entry was applied.
   */
  checkpoint(): PassCheckpoint | null {
    if (this.#lastSeq === 0) return null;
    return { lastSeq: this.#lastSeq, appliedTo: this.#appliedTo, state: snapshotOf(this.#state), snaps: new Map(this.#snaps) };
  }

  /** The generation at `now`; `upToSeq` stops the pass there (a rebuild of a published generation). */
  async build(now: number, upToSeq = Number.POSITIVE_INFINITY): Promise<GenerationFigures> {
    const bounds = Object.fromEntries(PERIODS.map((k) => [k, boundsOf(k, now, this.season)])) as Record<PeriodKind, PeriodBounds>;
    const instants = [...new Set(Object.values(bounds).flatMap((b) => (b.start === null ? [b.end] : [b.start, b.end])))]
      .filter((t) => t < now)
      .sort((a, b) => a - b);
    // An instant already passed but never taken cannot be recovered from the state: rebuild from the first entry.
    if (instants.some((t) => t <= this.#appliedTo && !this.#snaps.has(t))) this.#reset();
    await this.#advance(now, instants, upToSeq);
    for (const t of this.#snaps.keys()) if (!instants.includes(t)) this.#snaps.delete(t);
    for (const t of this.#settledMarks.keys()) if (!instants.includes(t)) this.#settledMarks.delete(t);

    const final = snapshotOf(this.#state);
    const marksAt = new Map<number, Marks>(this.#settledMarks);
    const marks = async (t: number) => {
      let m = marksAt.get(t);
      if (!m) marksAt.set(t, (m = await marksBefore(this.db, this.chainId, t)));
      if (t < now - MARKS_SETTLE_MS) this.#settledMarks.set(t, m);
      return m;
    };
    const stateAt = (t: number) => (t < now ? (this.#snaps.get(t) as PassState) : final);
    const periods = {} as Record<PeriodKind, PeriodFigures>;
    for (const kind of PERIODS) {
      const b = bounds[kind];
      periods[kind] = {
        bounds: b,
        start: b.start === null ? null : { state: stateAt(b.start), marks: await marks(b.start) },
        // A period still running ends with `now` included: its entries and trades at `now` count.
        end: { state: stateAt(b.end), marks: await marks(b.end < now ? b.end : now + 1) },
      };
    }
    return { asOf: now, lastSeq: this.#lastSeq, periods, markets: await marketFacts(this.db, this.chainId) };
  }

  #reset(): void {
    this.#state = emptyState();
    this.#lastSeq = 0;
    this.#appliedTo = Number.NEGATIVE_INFINITY;
    this.#snaps.clear();
  }

  /** Applies the entries journaled at or before `now`, taking a snapshot at each instant as the pass reaches it. */
  async #advance(now: number, instants: readonly number[], upToSeq: number): Promise<void> {
    const pending = instants.filter((t) => t > this.#appliedTo && !this.#snaps.has(t));
    const take = (upTo: number) => {
      while (pending.length > 0 && pending[0] <= upTo) this.#snaps.set(pending.shift() as number, snapshotOf(this.#state));
    };
    for (;;) {
      const page = await readOpsFrom(this.db, this.#lastSeq, PAGE);
      for (const e of page) {
        // Entries after `now` wait for the next build.
        if (e.at > now || e.seq > upToSeq) {
          take(now);
          this.#appliedTo = Math.max(this.#appliedTo, now);
          return;
        }
        take(e.at);
        applyEntry(this.#state, e.at, opsFromJson(e.ops));
        this.#lastSeq = e.seq;
      }
      if (page.length < PAGE) break;
    }
    take(now);
    this.#appliedTo = now;
  }
}

/**
 * The displayed price of each outcome of each committed market from its last catalog trade before `t` (the catalog's
 * own rule: a binary market's other outcome is the complement of its last trade).
 */
async function marksBefore(db: SqlRunner, chainId: number, t: number): Promise<Marks> {
  const rows = await db.query<{ market_id: string; n: unknown; outcome: unknown; price_ppm: unknown; at: unknown; id: unknown }>(
    `SELECT m.market_id::text AS market_id, jsonb_array_length(m.outcomes) AS n, o.i AS outcome, t.price_ppm, t.at, t.id
       FROM markets m
       CROSS JOIN LATERAL generate_series(0, jsonb_array_length(m.outcomes) - 1) AS o(i)
       CROSS JOIN LATERAL (SELECT price_ppm, at, id FROM market_trades
                            WHERE market_pk = m.id AND outcome = o.i AND at < $2 ORDER BY at DESC, id DESC LIMIT 1) t
      WHERE m.settlement = 'committed' AND m.chain_id = $1 AND m.market_id IS NOT NULL`,
    [chainId, t],
  );
  const latest = new Map<string, { n: number; rows: { outcome: number; ppm: number; at: number; id: number }[] }>();
  for (const r of rows) {
    let m = latest.get(r.market_id);
    if (!m) latest.set(r.market_id, (m = { n: Number(r.n), rows: [] }));
    m.rows.push({ outcome: Number(r.outcome), ppm: Number(r.price_ppm), at: Number(r.at), id: Number(r.id) });
  }
  const prices = new Map<string, (number | null)[]>();
  for (const [market, { n, rows: rs }] of latest) {
    const p: (number | null)[] = Array.from({ length: n }, () => null);
    if (n === 2) {
      const last = rs.reduce((a, b) => (b.at > a.at || (b.at === a.at && b.id > a.id) ? b : a));
      p[last.outcome] = last.ppm;
      p[1 - last.outcome] = 1_000_000 - last.ppm;
    } else for (const r of rs) p[r.outcome] = r.ppm;
    prices.set(market, p);
  }
  return (market) => prices.get(market);
}

async function marketFacts(db: SqlRunner, chainId: number): Promise<Map<string, MarketFacts>> {
  const rows = await db.query<{
    market_id: string;
    address: string;
    category: string;
    collateral_symbol: string;
    collateral_decimals: unknown;
    creator: string;
    created_at: unknown;
  }>(
    `SELECT market_id::text AS market_id, address, category, collateral_symbol, collateral_decimals, creator, created_at
       FROM markets WHERE settlement = 'committed' AND chain_id = $1 AND market_id IS NOT NULL`,
    [chainId],
  );
  return new Map(
    rows.map((r) => [
      r.market_id,
      {
        address: r.address,
        category: r.category,
        collateral: { symbol: r.collateral_symbol, decimals: Number(r.collateral_decimals) },
        creator: r.creator.toLowerCase(),
        createdAt: Number(r.created_at),
      },
    ]),
  );
}
