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
  /** The creator's proposal (an outcome, or OUTCOME_NONE for void), and whether a challenge followed. */
  proposed: number | null;
  challenged: boolean;
  /** Collateral its traders exchanged for shares: the sum of their `volume`. */
  volume: bigint;
  /** Journal instant of the terminal state. */
  endedAt: number | null;
}

/** Everything the pass knows at one instant. Keys: lower-case account, then market id as a decimal string. */
export interface PassState {
  trading: Map<Address, Map<string, MarketTrading>>;
  voting: Map<Address, Map<string, Voting>>;
  markets: Map<string, MarketLife>;
}

const PPM = 1_000_000n;

export function emptyState(): PassState {
  return { trading: new Map(), voting: new Map(), markets: new Map() };
}

/** A deep copy (bigints included): the figures as they stood, untouched by what the pass does next. */
export function snapshotOf(state: PassState): PassState {
  return structuredClone(state);
}

function tradingOf(state: PassState, account: Address, market: string): MarketTrading {
  let byMarket = state.trading.get(account);
  if (!byMarket) state.trading.set(account, (byMarket = new Map()));
  let t = byMarket.get(market);
  if (!t) {
    t = { cash: 0n, shares: [0n, 0n, 0n], volume: 0n, paid: 0n, callCash: 0n, callPaid: 0n, closedCalls: 0, closedPnl: 0n, closedPaid: 0n, settled: 0, won: 0 };
    byMarket.set(market, t);
  }
  return t;
}

function lifeOf(state: PassState, market: string): MarketLife {
  let l = state.markets.get(market);
  if (!l) state.markets.set(market, (l = { end: null, proposed: null, challenged: false, volume: 0n, endedAt: null }));
  return l;
}

function votingOf(state: PassState, account: Address, market: string): Voting {
  let byMarket = state.voting.get(account);
  if (!byMarket) state.voting.set(account, (byMarket = new Map()));
  let v = byMarket.get(market);
  if (!v) byMarket.set(market, (v = { ballots: 0, staked: 0n, rewards: 0n, rewarded: 0 }));
  return v;
}

const held = (t: MarketTrading) => t.shares.some((s) => s !== 0n);

/** Movements have a treasury leg (fees); no trader is this account, so the leg is simply not counted. */
const NO_TREASURY = "0x000000000000000000000000000000000000fee0" as Address;

/** The accounts whose trading an op is, lower-case. */
function tradersOf(op: JournalOp): Address[] {
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
  for (const byMarket of state.trading.values()) {
    const t = byMarket.get(market);
    if (t?.settled !== 0 || !held(t)) continue;
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
        if (op.state === "creator_proposal") life.proposed = op.outcome;
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

/** A market's trading worth under `marks`: cash plus each held share at its outcome's mark, floored to a base unit. */
export function worthAt(t: MarketTrading, market: string, life: MarketLife | undefined, marks: Marks): bigint {
  let value = t.cash;
  const end = life?.end;
  const prices = marks(market) ?? [];
  const n = Math.max(prices.length, 2);
  for (const [i, s] of t.shares.entries()) {
    if (s === 0n) continue;
    let ppm: number;
    if (typeof end === "number") ppm = i === end ? 1_000_000 : 0;
    else ppm = prices[i] ?? Math.round(1_000_000 / n); // never traded at all: the uniform prior
    value += (s * BigInt(ppm)) / PPM;
  }
  return value;
}
