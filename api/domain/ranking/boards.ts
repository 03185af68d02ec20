/**
 * The three boards of one generation and period (spec "Leaderboard"): traders (every sort but CREATOR_QUALITY and
 * VOTERS), creators and voters. A period's figure is its end's minus its start's, summed over the markets the query
 * keeps (category, collateral). Money is bigint base units here; the operation formats it.
 */
import type { Address } from "viem";
import { noTrading, noVoting, pricer, type PassState } from "./trading-pass";
import type { Generation, MarketFacts, PeriodFigures } from "./generation";

export const TRADER_SORTS = ["PNL", "VOLUME", "RISK_ADJ_PNL", "RETURN", "MARKETS", "SETTLED", "WINS", "WIN_RATE", "ROI"] as const;
export const SORTS = [...TRADER_SORTS, "CREATOR_QUALITY", "VOTERS"] as const;
export type BoardSort = (typeof SORTS)[number];

/** WIN_RATE ranks only accounts with this many settled markets in the period; ROI this many closed calls. */
export const MIN_SETTLED_MARKETS_TO_RANK = 3;
export const MIN_CLOSED_CALLS_TO_RANK = 3;
/** CREATOR_QUALITY ranks only creators with this many markets ended in the period. */
export const MIN_ENDED_MARKETS_TO_RANK = 1;

export interface MarketFilter {
  /** "ALL" or a MarketCategory. */
  category: string;
  /** Collateral symbol as served (compared without case). */
  collateral: string;
}

export interface TraderFigures {
  address: Address;
  pnl: bigint;
  volume: bigint;
  paid: bigint;
  markets: number;
  settledMarkets: number;
  wins: number;
  closedCalls: number;
  closedPnl: bigint;
  closedPaid: bigint;
}

export interface CreatorFigures {
  address: Address;
  marketsCreated: number;
  marketsEnded: number;
  unchallenged: number;
  overturned: number;
  volume: bigint;
}

export interface VoterFigures {
  address: Address;
  ballots: number;
  rewarded: number;
  staked: bigint;
  rewards: bigint;
}

/** An account's trader figures before any trading. */
export const noFigures = (address: Address): TraderFigures => ({
  address,
  pnl: 0n,
  volume: 0n,
  paid: 0n,
  markets: 0,
  settledMarkets: 0,
  wins: 0,
  closedCalls: 0,
  closedPnl: 0n,
  closedPaid: 0n,
});

/** The markets of the generation the filter keeps, by engine market id. */
export function marketsKept(gen: Generation, f: MarketFilter): Map<string, MarketFacts> {
  const symbol = f.collateral.toUpperCase();
  return new Map([...gen.markets].filter(([, m]) => m.collateral.symbol.toUpperCase() === symbol && (f.category === "ALL" || m.category === f.category)));
}

/** The figures of an account and market before its first trade. */
const NOTHING = noTrading();

/** Every account with trading in a kept market, and its figures over the period. */
export function traderFigures(p: PeriodFigures, kept: ReadonlyMap<string, MarketFacts>): TraderFigures[] {
  const out: TraderFigures[] = [];
  const endWorth = pricer(p.end.state, p.end.marks);
  const startWorth = p.start ? pricer(p.start.state, p.start.marks) : null;
  for (const [address, byMarket] of p.end.state.trading) {
    const f = noFigures(address);
    const startByMarket = p.start?.state.trading.get(address);
    let any = false;
    for (const [market, end] of byMarket) {
      if (!kept.has(market)) continue;
      const start = startByMarket?.get(market);
      const s = start ?? NOTHING;
      const volume = end.volume - s.volume;
      const closed = end.closedCalls - s.closedCalls;
      const pnl = endWorth(end, market) - (start && startWorth ? startWorth(start, market) : 0n);
      if (volume === 0n && pnl === 0n && closed === 0) continue;
      any = true;
      f.pnl += pnl;
      f.volume += volume;
      f.paid += end.paid - s.paid;
      if (volume > 0n) f.markets++;
      f.settledMarkets += end.settled - s.settled;
      f.wins += end.won - s.won;
      f.closedCalls += closed;
      f.closedPnl += end.closedPnl - s.closedPnl;
      f.closedPaid += end.closedPaid - s.closedPaid;
    }
    if (any) out.push(f);
  }
  return out;
}

/** Compares a/b against c/d for positive denominators, without leaving bigint. */
const ratioCmp = (a: bigint, b: bigint, c: bigint, d: bigint) => (a * d === c * b ? 0 : a * d > c * b ? 1 : -1);
const big = (x: bigint, y: bigint) => (x === y ? 0 : x > y ? 1 : -1);
const num = (x: number, y: number) => x - y;
/** The last tie-break of every board: the address, so that every page of one generation agrees. */
const byAddress = (a: { address: Address }, b: { address: Address }) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);

/**
 * Which traders a sort ranks (WIN_RATE and ROI need enough settled markets / closed calls), in rank order: the sort's
 * figure descending, ties by volume, then P&L (spec), then address so that every page of a generation agrees.
 */
export function rankTraders(all: readonly TraderFigures[], sort: BoardSort): TraderFigures[] {
  const key = (a: TraderFigures, b: TraderFigures): number => {
    switch (sort) {
      case "VOLUME":
        return big(a.volume, b.volume);
      case "MARKETS":
        return num(a.markets, b.markets);
      case "SETTLED":
        return num(a.settledMarkets, b.settledMarkets);
      case "WINS":
        return num(a.wins, b.wins);
      case "WIN_RATE":
        return ratioCmp(BigInt(a.wins), BigInt(a.settledMarkets), BigInt(b.wins), BigInt(b.settledMarkets));
      case "ROI":
        return ratioCmp(a.closedPnl, a.closedPaid, b.closedPnl, b.closedPaid);
      default:
        // PNL, RETURN (its alias) and RISK_ADJ_PNL (legacy: ranked as PNL).
        return big(a.pnl, b.pnl);
    }
  };
  const ranked = all.filter((t) =>
    sort === "WIN_RATE"
      ? t.settledMarkets >= MIN_SETTLED_MARKETS_TO_RANK
      : sort === "ROI"
        ? t.closedCalls >= MIN_CLOSED_CALLS_TO_RANK && t.closedPaid > 0n
        : true,
  );
  return ranked.sort((a, b) => key(b, a) || big(b.volume, a.volume) || big(b.pnl, a.pnl) || byAddress(a, b));
}

/** Creators of kept markets: created in the period (catalog), ended in it (journal), and their markets' volume. */
export function creatorFigures(p: PeriodFigures, kept: ReadonlyMap<string, MarketFacts>): CreatorFigures[] {
  const by = new Map<string, CreatorFigures>();
  const of = (address: string) => {
    let c = by.get(address);
    if (!c) by.set(address, (c = { address: address as Address, marketsCreated: 0, marketsEnded: 0, unchallenged: 0, overturned: 0, volume: 0n }));
    return c;
  };
  const { start, end } = p.bounds;
  for (const [market, facts] of kept) {
    const life = p.end.state.markets.get(market);
    const before = p.start?.state.markets.get(market);
    const created = facts.createdAt >= (start ?? Number.NEGATIVE_INFINITY) && facts.createdAt < end;
    const ended = life?.endedAt != null && before?.endedAt == null;
    const volume = (life?.volume ?? 0n) - (before?.volume ?? 0n);
    if (!created && !ended && volume === 0n) continue;
    const c = of(facts.creator);
    if (created) c.marketsCreated++;
    c.volume += volume;
    if (ended && life) {
      c.marketsEnded++;
      if (!life.challenged) c.unchallenged++;
      else if (life.end !== life.proposed) c.overturned++;
    }
  }
  return [...by.values()];
}

/** CREATOR_QUALITY: the share of ended markets that ended unchallenged, then markets ended, then volume. */
export function rankCreators(all: readonly CreatorFigures[]): CreatorFigures[] {
  return all
    .filter((c) => c.marketsEnded >= MIN_ENDED_MARKETS_TO_RANK)
    .sort(
      (a, b) =>
        ratioCmp(BigInt(b.unchallenged), BigInt(b.marketsEnded), BigInt(a.unchallenged), BigInt(a.marketsEnded)) ||
        num(b.marketsEnded, a.marketsEnded) ||
        big(b.volume, a.volume) ||
        byAddress(a, b),
    );
}

/** Voters in kept markets over the period. */
export function voterFigures(p: PeriodFigures, kept: ReadonlyMap<string, MarketFacts>): VoterFigures[] {
  const out: VoterFigures[] = [];
  const sum = (s: PassState | undefined, address: Address) => {
    const v = noVoting();
    for (const [market, x] of s?.voting.get(address) ?? []) {
      if (!kept.has(market)) continue;
      v.ballots += x.ballots;
      v.staked += x.staked;
      v.rewards += x.rewards;
      v.rewarded += x.rewarded;
    }
    return v;
  };
  for (const address of p.end.state.voting.keys()) {
    const e = sum(p.end.state, address);
    const s = sum(p.start?.state, address);
    const f: VoterFigures = {
      address,
      ballots: e.ballots - s.ballots,
      rewarded: e.rewarded - s.rewarded,
      staked: e.staked - s.staked,
      rewards: e.rewards - s.rewards,
    };
    if (f.ballots > 0 || f.rewarded > 0) out.push(f);
  }
  return out;
}

/** VOTERS: rewards earned, then rewarded ballots, then ballots cast. */
export function rankVoters(all: readonly VoterFigures[]): VoterFigures[] {
  return [...all].sort((a, b) => big(b.rewards, a.rewards) || num(b.rewarded, a.rewarded) || num(b.ballots, a.ballots) || byAddress(a, b));
}
