/**
 * The leaderboard's one source: a pass over the committed journal, in journal order. It keeps, per account and
 * market, the trading that account did there (collateral in and out, shares held, volume, calls opened and closed,
 * settlements) and its ballots, and per market how its life ended. Nothing else moves these figures: grants,
 * purchases, bonds and stakes are not trading, so they never count as profit or loss (docs/leaderboard.md).
 *
 * The pass is pure (ops in, figures out) so the board's arithmetic is tested on ops written by hand, and a snapshot at
 * an instant is a deep copy of the figures as they stood then: a period's figures are its end's minus its start's.
 */
import type { Address } from "viem";
import { movementsOf, OUTCOME_NONE, parseOutcomeAssetId, COLLATERAL_ASSET, type JournalOp } from "../../../decoder";

/** One account's trading in one market. Amounts are collateral base units; shares use the same units. */
export interface MarketTrading {
  /** Collateral received minus paid through trades, fees, payouts and refunds in this market. */
  cash: bigint;
  /** Shares held per outcome (index 0..2). */
  shares: bigint[];
  /** Collateral exchanged for shares in trades, paid or received (fees excluded). */
  volume: bigint;
  /** Collateral paid into trades (buys, mints, fees). */
  paid: bigint;
  /** `cash` and `paid` when the open call began (a call: from the first share held to none held). */
  callCash: bigint;
  callPaid: bigint;
  /** Calls closed (sold out, merged, refunded, or settled by the market's resolution). */
  closedCalls: number;
  closedPnl: bigint;
  closedPaid: bigint;
  /** 1 once the market resolved while this account held shares of it; `won` when its trading there ended in profit. */
  settled: number;
  won: number;
}

/** One account's ballots in one market. */
export interface Voting {
  ballots: number;
  staked: bigint;
  rewards: bigint;
  rewarded: number;
}

/** How a market's life went, as its MARKET_STATE ops tell it. */
export interface MarketLife {
  /** Set when the market reached a terminal state: the winning outcome, or "void". */
  end: number | "void" | null;
  /** The creator's proposal (an outcome, or "void"), and whether a challenge followed. */
  proposed: number | "void" | null;
  challenged: boolean;
  /** Collateral its traders exchanged for shares: the sum of their `volume`. */
  volume: bigint;
  /** Journal instant of the terminal state. */
  endedAt: number | null;
}

/**
 * Everything the pass knows at one instant. Keys: lower-case account, then market id as a decimal string.
 *
 * Snapshots share what has not changed since (copy on write): a snapshot copies the three outer maps only, and the pass
 * copies an inner map or a record the first time it writes to it after a snapshot. A snapshot of a state with
 * hundreds of thousands of records costs a map of its accounts, not a copy of every record.
 */
export interface PassState {
  /** Objects created or copied in this epoch are the state's own; a snapshot starts the next epoch. */
  epoch: number;
  trading: Map<Address, Map<string, MarketTrading>>;
  voting: Map<Address, Map<string, Voting>>;
  markets: Map<string, MarketLife>;
}

const PPM = 1_000_000n;
/** The epoch an inner map or a record was made in (its owner may write to it only in that epoch). */
const madeIn = new WeakMap<object, number>();
const own = <T extends object>(state: PassState, o: T): T => {
  madeIn.set(o, state.epoch);
  return o;
};
const owned = (state: PassState, o: object) => madeIn.get(o) === state.epoch;

export function emptyState(): PassState {
  return { epoch: 0, trading: new Map(), voting: new Map(), markets: new Map() };
}

/** The figures as they stand, untouched by what the pass does next (a snapshot is read, never passed on). */
export function snapshotOf(state: PassState): PassState {
  const snap: PassState = { epoch: -1, trading: new Map(state.trading), voting: new Map(state.voting), markets: new Map(state.markets) };
  state.epoch++;
  return snap;
}

/** The state's own copy of `outer`'s inner map for `key`, made (empty) or copied on first write in this epoch. */
function innerOf<V>(state: PassState, outer: Map<Address, Map<string, V>>, key: Address): Map<string, V> {
  const inner = outer.get(key);
  if (inner && owned(state, inner)) return inner;
  const mine = own(state, new Map(inner ?? []));
  outer.set(key, mine);
  return mine;
}

/** The state's own copy of `map`'s record for `key`: `make` for a new one, `copy` for one a snapshot shares. */
function recordOf<V extends object>(state: PassState, map: Map<string, V>, key: string, make: () => V, copy: (v: V) => V): V {
  const v = map.get(key);
  if (v && owned(state, v)) return v;
  const mine = own(state, v ? copy(v) : make());
  map.set(key, mine);
  return mine;
}

/** An account's ballots in a market before its first. */
export const noVoting = (): Voting => ({ ballots: 0, staked: 0n, rewards: 0n, rewarded: 0 });

/** An account's figures in a market before its first trade there. */
export const noTrading = (): MarketTrading => ({
  cash: 0n,
  shares: [0n, 0n, 0n],
  volume: 0n,
  paid: 0n,
  callCash: 0n,
  callPaid: 0n,
  closedCalls: 0,
  closedPnl: 0n,
  closedPaid: 0n,
  settled: 0,
  won: 0,
});

function tradingOf(state: PassState, account: Address, market: string): MarketTrading {
  return recordOf(state, innerOf(state, state.trading, account), market, noTrading, (t) => ({ ...t, shares: [...t.shares] }));
}

function lifeOf(state: PassState, market: string): MarketLife {
  return recordOf(
    state,
    state.markets,
    market,
    () => ({ end: null, proposed: null, challenged: false, volume: 0n, endedAt: null }),
    (l) => ({ ...l }),
  );
}

function votingOf(state: PassState, account: Address, market: string): Voting {
  return recordOf(state, innerOf(state, state.voting, account), market, noVoting, (v) => ({ ...v }));
}

const held = (t: MarketTrading) => t.shares.some((s) => s !== 0n);

/** Movements have a treasury leg (fees); no trader is this account, so the leg is simply not counted. */
export const NO_TREASURY = "0x000000000000000000000000000000000000fee0" as Address;

/** The accounts whose trading an op is (MATCH, LMSR_TRADE, RESOLUTION_PAYOUT, VOID_REFUND), each once. */
export function tradersOf(op: JournalOp): Address[] {
  switch (op.type) {
    case "MATCH":
      return op.maker === op.taker ? [op.maker] : [op.maker, op.taker];
    case "LMSR_TRADE":
    case "RESOLUTION_PAYOUT":
    case "VOID_REFUND":
      return [op.account];
    default:
      return [];
  }
}

function applyTrade(state: PassState, op: JournalOp & { marketId: bigint }, traders: Address[]): void {
  const market = op.marketId.toString();
  const life = lifeOf(state, market);
  const isTrade = op.type === "MATCH" || op.type === "LMSR_TRADE";
  const lower = traders.map((a) => a.toLowerCase() as Address);
  const before = lower.map((a) => {
    const t = tradingOf(state, a, market);
    return { held: held(t), cash: t.cash, paid: t.paid };
  });
  for (const m of movementsOf(op, { treasury: NO_TREASURY })) {
    for (const account of lower) {
      const t = tradingOf(state, account, market);
      const from = m.from.toLowerCase() === account;
      const to = m.to.toLowerCase() === account;
      if (from === to) continue;
      const sign = to ? 1n : -1n;
      if (m.assetId === COLLATERAL_ASSET) {
        t.cash += sign * m.amount;
        if (from) t.paid += m.amount;
        // Volume: the collateral an account exchanged for shares (a fee is not traded; payouts are not trades).
        if (isTrade && m.to !== NO_TREASURY) {
          t.volume += m.amount;
          life.volume += m.amount;
        }
      } else {
        const parsed = parseOutcomeAssetId(m.assetId);
        if (parsed) t.shares[parsed.side] += sign * m.amount;
      }
    }
  }
  for (const [i, account] of lower.entries()) {
    const t = tradingOf(state, account, market);
    const now = held(t);
    if (!before[i].held && now) {
      t.callCash = before[i].cash;
      t.callPaid = before[i].paid;
    } else if (before[i].held && !now && t.settled === 0) {
      closeCall(t, t.cash);
    }
  }
}

/** Closes the open call, worth `value` in cash now. */
function closeCall(t: MarketTrading, value: bigint): void {
  t.closedCalls++;
  t.closedPnl += value - t.callCash;
  t.closedPaid += t.paid - t.callPaid;
}

/** A market resolved: every account holding it settles at the payout's value (1 per winning share). */
function settle(state: PassState, market: string, outcome: number): void {
  for (const [account, byMarket] of state.trading) {
    const seen = byMarket.get(market);
    if (seen?.settled !== 0 || !held(seen)) continue;
    const t = tradingOf(state, account, market);
    const value = t.cash + (t.shares[outcome] ?? 0n);
    t.settled = 1;
    if (value > 0n) t.won = 1;
    closeCall(t, value);
  }
}

/** Applies one journal entry's ops at instant `at`. */
export function applyEntry(state: PassState, at: number, ops: readonly JournalOp[]): void {
  for (const op of ops) {
    const traders = tradersOf(op);
    if (traders.length > 0 && "marketId" in op) {
      applyTrade(state, op, traders);
      continue;
    }
    switch (op.type) {
      case "MARKET_STATE": {
        const life = lifeOf(state, op.marketId.toString());
        if (op.state === "creator_proposal") life.proposed = op.outcome === OUTCOME_NONE ? "void" : op.outcome;
        if (op.state === "challenge") life.challenged = true;
        if (op.state === "resolved" || op.state === "void") {
          life.end = op.state === "void" || op.outcome === OUTCOME_NONE ? "void" : op.outcome;
          life.endedAt = at;
          if (life.end !== "void") settle(state, op.marketId.toString(), life.end);
        }
        break;
      }
      case "STAKE_LOCK": {
        const v = votingOf(state, op.account.toLowerCase() as Address, op.marketId.toString());
        v.ballots++;
        v.staked += op.amount;
        break;
      }
      case "VOTE_REWARD": {
        const v = votingOf(state, op.account.toLowerCase() as Address, op.marketId.toString());
        v.rewarded++;
        v.rewards += op.amount;
        break;
      }
      default:
        break;
    }
  }
}

/**
 * Marks of one market at an instant, ppm per outcome (null: no trade yet). A resolved market is marked at its payout
 * (1 for the winner, 0 for the rest), whatever its last price.
 */
export type Marks = (market: string) => readonly (number | null)[] | undefined;

/**
 * What one share of each outcome of `market` is worth in ppm of a collateral unit at `marks`: the payout once the
 * market resolved, else the displayed price, else (an outcome never traded at all) the uniform prior.
 */
function sharePrices(market: string, life: MarketLife | undefined, marks: Marks): bigint[] {
  const end = life?.end;
  const prices = marks(market) ?? [];
  const prior = Math.round(1_000_000 / Math.max(prices.length, 2));
  return [0, 1, 2].map((i) => BigInt(typeof end === "number" ? (i === end ? 1_000_000 : 0) : (prices[i] ?? prior)));
}

/** A market's trading worth at `prices` (./sharePrices): cash plus each held share at its price, floored to a base unit. */
function worthAt(t: MarketTrading, prices: readonly bigint[]): bigint {
  let value = t.cash;
  for (const [i, s] of t.shares.entries()) if (s !== 0n) value += (s * prices[i]) / PPM;
  return value;
}

/** `worthAt` for many records of one state: each market's prices are worked out once. */
export function pricer(state: PassState, marks: Marks): (t: MarketTrading, market: string) => bigint {
  const byMarket = new Map<string, bigint[]>();
  return (t, market) => {
    let prices = byMarket.get(market);
    if (!prices) byMarket.set(market, (prices = sharePrices(market, state.markets.get(market), marks)));
    return worthAt(t, prices);
  };
}
