/**
 * The on-chain lane's reads, for the discovery routes (api/operations/discover via api/domain/markets) and the trade
 * operations. Everything comes from the Ponder projection through one `ProjectionReader`: Ponder's HTTP routes with
 * the embedded PGlite, the Postgres views schema `indexer_<chainId>` with DATABASE_URL (docs/indexer.md). The
 * projection is opened once per service (`openOnchainProjection`, `Services.onchain`) and passed to each read:
 *
 *   listOnchainMarkets(p, filter)            markets of the LMSR factories, newest first
 *   getOnchainMarket(p, address)             one market with prices, or null
 *   onchainDepth(p, address, levels?)        LMSR buy ladder per outcome from q/b (relayer/pricing, the contract's math)
 *   onchainChart(p, address, window)         OHLC frames of post-trade probabilities
 *   onchainTrades(p, address, limit, cursor) trades newest first, with nextCursor
 *   onchainHolders(p, address)               holder balances per outcome and open interest
 *   projectionFreshness(p)                   indexer cursor vs chain head
 */
import type { ServiceContext } from "../../context";
import { CHART_WINDOWS, type ChartWindow } from "../markets/trade-store";
import type { MarketChart, MarketDepth, MarketHolders, MarketTrades } from "../markets/data-source";
import { prices, quoteBuyShares, WAD, type LmsrState } from "../../../relayer/pricing/lmsr";
import { FreshnessProbe, type ProjectionFreshness } from "./freshness";
import { PonderHttpReader } from "./http-reader";
import type { MarketFilter, MarketRow, ProjectionReader, TradeRow } from "./rows";
import { PostgresViewsReader } from "./sql-reader";

export type { MarketFilter, MarketRow, TradeRow, ProjectionReader } from "./rows";
export type { ProjectionFreshness } from "./freshness";

/** The projection of one service: where its rows are read, how fresh they are, and the chain and clock they answer for. */
export interface OnchainProjection {
  reader: ProjectionReader;
  probe: FreshnessProbe;
  chainId: number;
  now(): number;
}

/** The Ponder HTTP base URL of this service's indexer. */
export function ponderUrlOf(ctx: ServiceContext): string {
  return `http://127.0.0.1:${ctx.config.PONDER_PORT}`;
}

/** The views schema of the indexer with DATABASE_URL (Postgres), else the indexer's HTTP routes. Opens no connection. */
export function openOnchainProjection(ctx: ServiceContext): OnchainProjection {
  const reader =
    ctx.config.DATABASE_URL && ctx.db.kind === "postgres"
      ? new PostgresViewsReader(ctx.db, `indexer_${ctx.config.CHAIN_ID}`)
      : new PonderHttpReader(ponderUrlOf(ctx));
  const now = () => ctx.clock.now();
  return { reader, probe: new FreshnessProbe(ponderUrlOf(ctx), ctx.config.rpcUrl, ctx.config.CHAIN_ID, now), chainId: ctx.config.CHAIN_ID, now };
}

const iso = (ms: number) => new Date(ms).toISOString();
const wadToProb = (w: bigint) => Number((w * 1_000_000n) / WAD) / 1_000_000;
const stateOf = (m: MarketRow): LmsrState => ({ b: BigInt(m.b), q: m.q.map(BigInt) });
export const defaultLabels = (n: number) => (n === 2 ? ["YES", "NO"] : Array.from({ length: n }, (_, i) => `OUTCOME_${i}`));

export interface OnchainMarket extends MarketRow {
  chainId: number;
  /** Instantaneous prices as probabilities (from q/b). */
  probabilities: number[];
  /** "open" | "closed" (past closeTime) | "resolved" | "voided". */
  status: "open" | "closed" | "resolved" | "voided";
}

function enrich(p: OnchainProjection, m: MarketRow): OnchainMarket {
  const status = m.state === 1 ? "resolved" : m.state === 2 ? "voided" : Number(m.closeTime) * 1000 <= p.now() ? "closed" : "open";
  return { ...m, chainId: p.chainId, probabilities: prices(stateOf(m)).map(wadToProb), status };
}

export async function listOnchainMarkets(p: OnchainProjection, filter: MarketFilter = {}): Promise<OnchainMarket[]> {
  return (await p.reader.markets(filter)).map((m) => enrich(p, m));
}

export async function getOnchainMarket(p: OnchainProjection, address: string): Promise<OnchainMarket | null> {
  const m = await p.reader.market(address);
  return m ? enrich(p, m) : null;
}

/** Ladder sizes as fractions of b (per mille); the default 5 levels are 5 %, 10 %, 20 %, 50 %, 100 % of b. */
export const LADDER_FRACTIONS_PERMILLE = [50n, 100n, 200n, 500n, 1000n, 2000n, 5000n];

/** LMSR buy ladder per outcome: cost (the contract's quoteBuy, rounded up) of buying each size now. */
export async function onchainDepth(p: OnchainProjection, address: string, levels = 5, labels?: string[]): Promise<MarketDepth | null> {
  const m = await p.reader.market(address);
  if (!m) return null;
  const state = stateOf(m);
  const probabilities = prices(state);
  const n = Math.min(Math.max(levels, 1), LADDER_FRACTIONS_PERMILLE.length);
  const names = labels ?? defaultLabels(m.outcomeCount);
  return {
    kind: "lmsr",
    address: m.address,
    chainId: p.chainId,
    levels: n,
    outcomes: names.map((label, index) => ({
      index,
      label,
      probability: wadToProb(probabilities[index] ?? 0n),
      ladder: LADDER_FRACTIONS_PERMILLE.slice(0, n).map((pm) => {
        const size = (state.b * pm) / 1000n || 1n;
        const cost = quoteBuyShares(state, index, size).cost;
        return { size: size.toString(), cost: cost.toString(), averageProbability: Number((cost * 1_000_000n) / size) / 1_000_000 };
      }),
    })),
    asOf: iso(p.now()),
    source: "onchain",
  };
}

function tradeView(m: MarketRow, t: TradeRow, labels: string[]) {
  const shares = BigInt(t.shares);
  const notional = BigInt(t.amount) + BigInt(t.fee);
  const post = prices({ b: BigInt(m.b), q: t.q.map(BigInt) });
  const avgBps = shares > 0n ? Number((notional * 10_000n) / shares) : 0;
  return {
    id: t.id,
    at: iso(Number(t.timestamp) * 1000),
    outcome: t.outcome,
    side: labels.length === 2 ? (t.outcome === 0 ? "YES" : "NO") : (labels[t.outcome] ?? String(t.outcome)),
    probability: wadToProb(post[t.outcome] ?? 0n),
    priceBps: String(Math.min(Math.max(avgBps, 1), 9999)),
    size: t.shares,
    notional: notional.toString(),
    takerSide: (t.isBuy ? "buy" : "sell") as "buy" | "sell",
    trader: t.recipient,
    txHash: t.txHash,
    blockNumber: Number(t.blockNumber),
  };
}

/** Trades newest first. `cursor` is the previous page's `nextCursor` (null on the last page). */
export async function onchainTrades(
  p: OnchainProjection,
  address: string,
  limit = 50,
  cursor?: string,
  labels?: string[],
): Promise<(MarketTrades & { nextCursor: string | null; trades: ReturnType<typeof tradeView>[] }) | null> {
  if (cursor !== undefined && !/^\d+:\d+$/.test(cursor)) throw new RangeError("bad cursor");
  const { reader } = p;
  const m = await reader.market(address);
  if (!m) return null;
  const n = Math.min(Math.max(limit, 1), 500);
  const rows = await reader.trades(address, { limit: n, before: cursor });
  const last = rows[rows.length - 1];
  return {
    address: m.address,
    chainId: p.chainId,
    trades: rows.map((t) => tradeView(m, t, labels ?? defaultLabels(m.outcomeCount))),
    nextCursor: rows.length === n && last ? `${last.blockNumber}:${last.logIndex}` : null,
    source: "onchain",
  };
}

/** Holder balances per outcome (token id = marketId << 8 | outcome); outstanding = the market's q. */
export async function onchainHolders(p: OnchainProjection, address: string, labels?: string[]): Promise<MarketHolders | null> {
  const { reader } = p;
  const m = await reader.market(address);
  if (!m) return null;
  const rows = await reader.holders(address);
  const names = labels ?? defaultLabels(m.outcomeCount);
  const outcomes = names.map((label, index) => ({
    index,
    label,
    holders: rows
      .filter((r) => Number(BigInt(r.tokenId) & 0xffn) === index && BigInt(r.balance) > 0n)
      .sort((a, b) => (BigInt(b.balance) > BigInt(a.balance) ? 1 : BigInt(b.balance) < BigInt(a.balance) ? -1 : a.holder.localeCompare(b.holder)))
      .map((r) => ({ account: r.holder.toLowerCase(), size: r.balance })),
    outstanding: m.q[index] ?? "0",
  }));
  return {
    address: m.address,
    chainId: p.chainId,
    outcomes,
    openInterest: m.q.reduce((s, x) => s + BigInt(x), 0n).toString(),
    asOf: iso(p.now()),
    source: "onchain",
  };
}

/** OHLC frames of post-trade probabilities per outcome over `window` (steps of CHART_WINDOWS). */
export async function onchainChart(p: OnchainProjection, address: string, window: ChartWindow, _labels?: string[]): Promise<MarketChart | null> {
  const { reader } = p;
  const m = await reader.market(address);
  if (!m) return null;
  const { span, step } = CHART_WINDOWS[window];
  const now = p.now();
  const since = span === null ? undefined : Math.floor((now - span) / 1000);
  const rows = (await reader.trades(address, { limit: 5000, since })).reverse();
  const frames = new Map<string, { start: number; outcome: number; open: number; high: number; low: number; close: number; volume: bigint; trades: number }>();
  for (const t of rows) {
    const start = Math.floor((Number(t.timestamp) * 1000) / step) * step;
    const post = prices({ b: BigInt(m.b), q: t.q.map(BigInt) }).map(wadToProb);
    post.forEach((p, outcome) => {
      const key = `${start}:${outcome}`;
      const f = frames.get(key);
      const vol = outcome === t.outcome ? BigInt(t.amount) + BigInt(t.fee) : 0n;
      if (!f) frames.set(key, { start, outcome, open: p, high: p, low: p, close: p, volume: vol, trades: outcome === t.outcome ? 1 : 0 });
      else
        Object.assign(f, {
          high: Math.max(f.high, p),
          low: Math.min(f.low, p),
          close: p,
          volume: f.volume + vol,
          trades: f.trades + (outcome === t.outcome ? 1 : 0),
        });
    });
  }
  const last = rows[rows.length - 1];
  return {
    address: m.address,
    chainId: p.chainId,
    window,
    stepMs: step,
    frames: [...frames.values()].map((f) => ({ ...f, start: iso(f.start), volume: f.volume.toString() })),
    latest: { at: last ? iso(Number(last.timestamp) * 1000) : null, probabilities: prices(stateOf(m)).map(wadToProb) },
    source: "onchain",
  };
}

export async function projectionFreshness(p: OnchainProjection): Promise<ProjectionFreshness> {
  return p.probe.check();
}
