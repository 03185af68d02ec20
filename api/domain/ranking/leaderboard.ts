/**
 * GET /discover/leaderboard's service: publishes generations (./generation.ts) and answers a board of one.
 *
 * - A read serves the newest generation while it is younger than LEADERBOARD_REFRESH_MS; an older one makes the read
 *   build the next (one build at a time; reads meanwhile wait for it). A build that fails leaves the last generation
 *   served, marked `stale`.
 * - A generation's id is a UUIDv7 carrying the generation's instant and last journal seq. A reader that pins one gets
 *   it from memory, or, on another instance or after a restart, rebuilt from the journal up to that seq and instant:
 *   the same figures, since the journal never changes what it holds. Pins older than PIN_MAX_AGE_MS are refused 410 EXPIRED_TOKEN.
 */
import { randomBytes } from "node:crypto";
import { formatUnits, type Address } from "viem";
import type { SqlRunner } from "../../../relayer/db/client";
import type { Clock } from "../../../relayer/clock";
import { ApiError } from "../../platform/errors/api-error";
import { lastEntrySeq } from "../../../relayer/journal/store";
import { GenerationBuilder, type Generation, type GenerationFigures } from "./generation";
import type { PeriodKind, Season } from "./periods";
import {
  creatorFigures,
  marketsKept,
  MIN_CLOSED_CALLS_TO_RANK,
  MIN_ENDED_MARKETS_TO_RANK,
  MIN_SETTLED_MARKETS_TO_RANK,
  rankCreators,
  rankTraders,
  rankVoters,
  traderFigures,
  voterFigures,
  type BoardSort,
} from "./boards";

export const METHOD_VERSION = "committed-pm-trading-account-v2" as const;
export const MARK_METHOD = "displayed-market-price-v1" as const;
/** Generations kept in memory for pinned reads (published here, and rebuilt for pins from elsewhere). */
const KEEP = 16;
/** How far back a pinned generation is still served (rebuilt if need be). */
export const PIN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface BoardQuery {
  sort: BoardSort;
  category: string;
  collateral: string;
  period: PeriodKind;
  generation?: string;
  limit: number;
  offset: number;
}

export interface LeaderboardOptions {
  db: SqlRunner;
  clock: Clock;
  chainId: number;
  season: Season;
  refreshMs: number;
}

export class Leaderboard {
  readonly #builder: GenerationBuilder;
  #kept: Generation[] = [];
  #building: Promise<Generation> | null = null;
  /** Rebuilt pins by `asOf:lastSeq`, most recent last; rebuilds run one at a time (each reads the journal). */
  #rebuilt = new Map<string, GenerationFigures>();
  #rebuilding: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: LeaderboardOptions) {
    this.#builder = new GenerationBuilder(o.db, o.chainId, o.season);
  }

  /** One page of a board (the response of GET /discover/leaderboard). */
  async board(q: BoardQuery) {
    const now = this.o.clock.now();
    const { gen, stale } = q.generation ? { gen: await this.#pinned(q.generation, now), stale: false } : await this.#current(now);
    return boardOf(gen, q, stale);
  }

  /** The generation to serve now; `stale` when the build of a newer one failed and the last one stands in. */
  async #current(now: number): Promise<{ gen: Generation; stale: boolean }> {
    const newest = this.#kept.at(-1);
    if (newest && now - newest.asOf < this.o.refreshMs) return { gen: newest, stale: false };
    try {
      return { gen: await this.#build(now), stale: false };
    } catch (err) {
      if (!newest) throw err;
      return { gen: newest, stale: true };
    }
  }

  #build(now: number): Promise<Generation> {
    this.#building ??= this.#builder
      .build(now)
      .then((g) => {
        const gen = { ...g, id: uuidV7(g.asOf, g.lastSeq) };
        this.#kept = [...this.#kept, gen].slice(-KEEP);
        return gen;
      })
      .finally(() => {
        this.#building = null;
      });
    return this.#building;
  }

  async #pinned(id: string, now: number): Promise<Generation> {
    const named = generationOf(id);
    if (named === null) throw new ApiError("INVALID_PAYLOAD", "generation is not a generation id this service published (a UUIDv7)");
    const { asOf, lastSeq } = named;
    // Two ids with the same instant and seq name the same figures, whatever their random bits.
    const kept = this.#kept.find((g) => g.asOf === asOf && g.lastSeq === lastSeq);
    if (kept) return { ...kept, id };
    if (asOf > now) throw new ApiError("INVALID_PAYLOAD", "generation names an instant still to come");
    if (now - asOf > PIN_MAX_AGE_MS) {
      throw new ApiError("EXPIRED_TOKEN", "this generation is older than 24 hours; read without `generation` for the current one");
    }
    if (lastSeq > (await lastEntrySeq(this.o.db))) throw new ApiError("INVALID_PAYLOAD", "generation names journal entries not yet written");
    // Another instance published it, or this one restarted: the journal up to its seq and instant gives its figures.
    const key = `${asOf}:${lastSeq}`;
    const run = this.#rebuilding.then(async () => {
      const known = this.#rebuilt.get(key);
      if (known) return known;
      const g = await new GenerationBuilder(this.o.db, this.o.chainId, this.o.season).build(asOf, lastSeq);
      this.#rebuilt.set(key, g);
      for (const k of this.#rebuilt.keys()) if (this.#rebuilt.size > KEEP) this.#rebuilt.delete(k);
      return g;
    });
    this.#rebuilding = run.catch(() => undefined);
    return { ...(await run), id };
  }
}

/**
 * A generation's id: a UUIDv7 (RFC 9562) whose 48-bit time field is the generation's instant and whose 62-bit
 * `rand_b` field is a counter, the last journal seq it includes (RFC 9562 allows a counter there). Both are what a
 * rebuild needs: with a clock that stands still, or two commits in one millisecond, the instant alone is not enough.
 */
export function uuidV7(ms: number, lastSeq: number): string {
  const b = randomBytes(16);
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | (b[6] & 0x0f);
  b.writeBigUInt64BE((2n << 62n) | BigInt(lastSeq), 8);
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The instant and last seq of a generation id, or null for any other UUID. */
export function generationOf(id: string): { asOf: number; lastSeq: number } | null {
  const m = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-([89ab][0-9a-f]{3})-([0-9a-f]{12})$/i.exec(id);
  if (!m) return null;
  const counter = BigInt(`0x${m[3]}${m[4]}`) & ((1n << 62n) - 1n);
  return counter > BigInt(Number.MAX_SAFE_INTEGER) ? null : { asOf: Number.parseInt(m[1] + m[2], 16), lastSeq: Number(counter) };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
/** 100 × num / den with two decimals, or null without a denominator. */
const percent = (num: bigint, den: bigint) => (den === 0n ? null : formatUnits((num * 10_000n) / den, 2));

function boardOf(gen: Generation, q: BoardQuery, stale: boolean) {
  const p = gen.periods[q.period];
  const kept = marketsKept(gen, q);
  const decimals = [...kept.values()][0]?.collateral.decimals ?? 6;
  const unit = (x: bigint) => formatUnits(x, decimals);
  /** The page of ranked rows, each with its rank. */
  const page = <T, R>(rows: readonly T[], row: (x: T) => R) => rows.slice(q.offset, q.offset + q.limit).map((x, i) => ({ rank: q.offset + i + 1, ...row(x) }));
  const measurement = (evaluated: number, available: number) => ({
    methodVersion: METHOD_VERSION,
    markMethod: MARK_METHOD,
    unit: { symbol: q.collateral.toUpperCase(), decimals, cashValue: false as const },
    scope: q.category === "ALL" ? ("committed_trading_account" as const) : ("committed_trading_category" as const),
    category: q.category,
    sort: q.sort,
    generation: gen.id,
    period: { kind: q.period, start: iso(p.bounds.start), end: iso(p.bounds.end) as string },
    asOf: iso(gen.asOf) as string,
    stale,
    evaluatedAccounts: evaluated,
    availableAccounts: available,
  });
  /** What every board's answer starts with: `total` counts the rows the sort ranks. */
  const head = (evaluated: number, total: number) => ({
    period: q.period,
    updatedAt: iso(gen.asOf),
    total,
    hasMore: q.offset + q.limit < total,
    measurement: measurement(evaluated, total),
  });

  if (q.sort === "CREATOR_QUALITY") {
    const all = creatorFigures(p, kept);
    const ranked = rankCreators(all);
    return {
      board: "creators" as const,
      ...head(all.length, ranked.length),
      creators: page(ranked, (c) => ({
        address: c.address,
        marketsCreated: c.marketsCreated,
        marketsEnded: c.marketsEnded,
        unchallenged: c.unchallenged,
        overturned: c.overturned,
        qualityPercent: percent(BigInt(c.unchallenged), BigInt(c.marketsEnded)),
        volume: unit(c.volume),
        volumeWei: c.volume.toString(),
      })),
      minEndedMarketsToRank: MIN_ENDED_MARKETS_TO_RANK,
    };
  }
  if (q.sort === "VOTERS") {
    const ranked = rankVoters(voterFigures(p, kept));
    return {
      board: "voters" as const,
      ...head(ranked.length, ranked.length),
      voters: page(ranked, (v) => ({
        address: v.address,
        ballots: v.ballots,
        rewardedBallots: v.rewarded,
        staked: unit(v.staked),
        rewards: unit(v.rewards),
        rewardsWei: v.rewards.toString(),
      })),
    };
  }
  const all = traderFigures(p, kept);
  const ranked = rankTraders(all, q.sort);
  return {
    board: "traders" as const,
    ...head(all.length, ranked.length),
    traders: page(ranked, (t) => {
      const returnPercent = percent(t.pnl, t.paid);
      const roiPercent = t.closedCalls > 0 ? percent(t.closedPnl, t.closedPaid) : null;
      const unavailableReasons: string[] = [];
      if (returnPercent === null) unavailableReasons.push("RETURN_NO_COLLATERAL_PAID");
      if (roiPercent === null) unavailableReasons.push("ROI_NO_CLOSED_CALLS");
      if (t.settledMarkets === 0) unavailableReasons.push("WIN_RATE_NO_SETTLED_MARKETS");
      return {
        address: t.address as Address,
        pnl: unit(t.pnl),
        volume: unit(t.volume),
        returnPercent,
        roiPercent,
        settledMarkets: t.settledMarkets,
        closedCalls: t.closedCalls,
        wins: t.wins,
        winRatePercent: percent(BigInt(t.wins), BigInt(t.settledMarkets)),
        markets: t.markets,
        performance: { pnl: t.pnl.toString(), return: returnPercent, volumeWei: t.volume.toString() },
        unavailableReasons,
      };
    }),
    minSettledMarketsToRank: MIN_SETTLED_MARKETS_TO_RANK,
    minClosedCallsToRank: MIN_CLOSED_CALLS_TO_RANK,
  };
}
