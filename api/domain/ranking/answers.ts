/**
 * The answers of the ranking reads, built from one generation: the board of GET /discover/leaderboard and the trading
 * profile of GET /discover/traders/{address}. Money leaves bigint here: whole units of the collateral as decimal
 * strings, base units as integer strings.
 */
import { formatUnits, type Address } from "viem";
import type { Generation, MarketFacts, PeriodFigures } from "./generation";
import { PERIODS, type PeriodKind } from "./periods";
import { pricer } from "./trading-pass";
import {
  creatorFigures,
  marketsKept,
  noFigures,
  MIN_CLOSED_CALLS_TO_RANK,
  MIN_ENDED_MARKETS_TO_RANK,
  MIN_SETTLED_MARKETS_TO_RANK,
  rankCreators,
  rankTraders,
  rankVoters,
  traderFigures,
  voterFigures,
  type BoardSort,
  type MarketFilter,
  type TraderFigures,
} from "./boards";

export const METHOD_VERSION = "committed-pm-trading-account-v2" as const;
export const MARK_METHOD = "displayed-market-price-v1" as const;

export interface BoardQuery {
  sort: BoardSort;
  category: string;
  collateral: string;
  period: PeriodKind;
  generation?: string;
  limit: number;
  offset: number;
}

/** The board a profile ranks on: PM markets of every category. */
const DEFAULT_BOARD: MarketFilter = { category: "ALL", collateral: "PM" };

/**
 * Every trader of a period and filter, and their order for a sort, computed once per generation: the figures sum
 * every account's markets (hundreds of milliseconds on a large journal), and a reader paging through a board, or
 * reading profiles, asks the same generation for them again and again.
 */
const tradersMemo = new WeakMap<PeriodFigures, Map<string, { all: TraderFigures[]; ranked: Map<BoardSort, TraderFigures[]> }>>();
function tradersOf(p: PeriodFigures, kept: ReadonlyMap<string, MarketFacts>, f: MarketFilter, sort: BoardSort) {
  let byFilter = tradersMemo.get(p);
  if (!byFilter) tradersMemo.set(p, (byFilter = new Map()));
  const key = `${f.category}|${f.collateral.toUpperCase()}`;
  let entry = byFilter.get(key);
  if (!entry) byFilter.set(key, (entry = { all: traderFigures(p, kept), ranked: new Map() }));
  let ranked = entry.ranked.get(sort);
  if (!ranked) entry.ranked.set(sort, (ranked = rankTraders(entry.all, sort)));
  return { all: entry.all, ranked };
}

/** A trader's figures as the answers show them (`unit` formats whole units of the collateral). */
function traderRow(t: TraderFigures, unit: (x: bigint) => string) {
  const returnPercent = percent(t.pnl, t.paid);
  const roiPercent = t.closedCalls > 0 ? percent(t.closedPnl, t.closedPaid) : null;
  const unavailableReasons: string[] = [];
  if (returnPercent === null) unavailableReasons.push("RETURN_NO_COLLATERAL_PAID");
  if (roiPercent === null) unavailableReasons.push("ROI_NO_CLOSED_CALLS");
  if (t.settledMarkets === 0) unavailableReasons.push("WIN_RATE_NO_SETTLED_MARKETS");
  return {
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
}

/** The decimals of the kept markets' collateral (PM's 6 when none is kept), and a formatter of whole units. */
function unitOf(kept: ReadonlyMap<string, MarketFacts>) {
  const decimals = [...kept.values()][0]?.collateral.decimals ?? 6;
  return { decimals, unit: (x: bigint) => formatUnits(x, decimals) };
}

/** An account's row on a ranked board with its rank (null off the board), or a row of zeros. */
function standingOn(ranked: readonly TraderFigures[], at: number | undefined, address: Address, unit: (x: bigint) => string) {
  const on = at !== undefined && at >= 0;
  return { rank: on ? at + 1 : null, rankedAmong: ranked.length, ...traderRow(on ? ranked[at] : noFigures(address), unit) };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
/** 100 × num / den with two decimals, or null without a denominator. */
const percent = (num: bigint, den: bigint) => (den === 0n ? null : formatUnits((num * 10_000n) / den, 2));

export function boardOf(gen: Generation, q: BoardQuery, stale: boolean) {
  const p = gen.periods[q.period];
  const kept = marketsKept(gen, q);
  const { decimals, unit } = unitOf(kept);
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
  const { all, ranked } = tradersOf(p, kept, q, q.sort);
  return {
    board: "traders" as const,
    ...head(all.length, ranked.length),
    traders: page(ranked, (t) => ({ address: t.address as Address, ...traderRow(t, unit) })),
    minSettledMarketsToRank: MIN_SETTLED_MARKETS_TO_RANK,
    minClosedCallsToRank: MIN_CLOSED_CALLS_TO_RANK,
  };
}

/** Markets a profile lists, the most traded first. */
export const PROFILE_MARKETS = 20;

/**
 * One account's trading profile in a generation: its figures and P&L rank in every period (PM markets, all
 * categories: the default board), and its markets with what it holds there.
 */
export function profileOf(gen: Generation, address: Address, stale: boolean) {
  const kept = marketsKept(gen, DEFAULT_BOARD);
  const { decimals, unit } = unitOf(kept);
  const periods = Object.fromEntries(
    PERIODS.map((kind) => {
      const p = gen.periods[kind];
      const { ranked } = tradersOf(p, kept, DEFAULT_BOARD, "PNL");
      const at = ranked.findIndex((t) => t.address === address);
      return [kind, { period: { kind, start: iso(p.bounds.start), end: iso(p.bounds.end) as string }, ...standingOn(ranked, at, address, unit) }];
    }),
  ) as Record<
    PeriodKind,
    { period: { kind: PeriodKind; start: string | null; end: string }; rank: number | null; rankedAmong: number } & ReturnType<typeof traderRow>
  >;
  const all = gen.periods.all.end;
  const worth = pricer(all.state, all.marks);
  const markets = [...(all.state.trading.get(address) ?? [])]
    .filter(([market]) => kept.has(market))
    .sort(([, a], [, b]) => (a.volume === b.volume ? 0 : a.volume > b.volume ? -1 : 1))
    .slice(0, PROFILE_MARKETS)
    .map(([market, t]) => {
      const facts = kept.get(market);
      const life = all.state.markets.get(market);
      const pnl = worth(t, market);
      return {
        market: facts?.address ?? "",
        category: facts?.category ?? "",
        pnl: unit(pnl),
        volume: unit(t.volume),
        shares: t.shares.map(String),
        holding: t.shares.some((x) => x !== 0n),
        ended: life?.end == null ? null : life.end === "void" ? ("void" as const) : ("resolved" as const),
        settled: t.settled === 1,
        won: t.won === 1,
        closedCalls: t.closedCalls,
      };
    });
  return {
    address,
    traded: gen.periods.all.end.state.trading.has(address),
    measurement: {
      methodVersion: METHOD_VERSION,
      markMethod: MARK_METHOD,
      unit: { symbol: "PM", decimals, cashValue: false as const },
      generation: gen.id,
      asOf: iso(gen.asOf) as string,
      stale,
    },
    periods,
    markets,
  };
}

/**
 * What the ranking says of each of `addresses` (lower-case) over all time, on the default board: its trader row and
 * P&L rank, and its ballots. The reputation reads add the creator standing (docs/leaderboard.md "Reputation").
 */
export function standingsOf(gen: Generation, addresses: readonly Address[]) {
  const kept = marketsKept(gen, DEFAULT_BOARD);
  const { unit } = unitOf(kept);
  const p = gen.periods.all;
  const { ranked } = tradersOf(p, kept, DEFAULT_BOARD, "PNL");
  const rankOf = new Map(ranked.map((t, i) => [t.address, i]));
  const voters = new Map(voterFigures(p, kept).map((v) => [v.address, v]));
  return addresses.map((address) => {
    const at = rankOf.get(address);
    const v = voters.get(address);
    return {
      trader: { traded: p.end.state.trading.has(address), ...standingOn(ranked, at, address, unit) },
      voting: {
        ballots: v?.ballots ?? 0,
        rewardedBallots: v?.rewarded ?? 0,
        rewards: unit(v?.rewards ?? 0n),
        rewardsWei: (v?.rewards ?? 0n).toString(),
      },
      measurement: { methodVersion: METHOD_VERSION, markMethod: MARK_METHOD, generation: gen.id, asOf: iso(gen.asOf) as string },
    };
  });
}
