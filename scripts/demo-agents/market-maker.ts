/**
 * The demo market maker of `npm start`: an ordinary API client (fetch and its own key, nothing internal) that keeps a
 * two-sided ladder of quotes on every open ORDERBOOK market, so a newcomer finds books with depth (docs/demo-agents.md).
 *
 * Each refresh: list the markets (every `relistMs`), read its balances once, then per market move a slowly drifting
 * fair price and replace the quote sets of up to `quoteSetsPerCall` (20) markets with one
 * `POST /orderbook/replace-quotes-batch` (atomic per market, one answer per market, one write). Every failure is one log line;
 * nothing it meets (a refusal, a 429, a 402, the service going away) throws out of `runMarketMaker`.
 */
import { randomUUID } from "node:crypto";
import { seededRandom } from "../../relayer/seeded-random";

/** Outcome-token units of one lot (docs/engine.md): every size is a multiple. */
export const LOT = 10_000n;
/** One share in outcome-token units (6 decimals). */
export const SHARE = 1_000_000n;

export interface MarketMakerOptions {
  /** Base URL of the agent API, e.g. http://127.0.0.1:8080/api/agent/v1. */
  baseUrl: string;
  apiKey: string;
  /** Aborting it stops the loop (and any request or sleep in flight); `runMarketMaker` then resolves. */
  signal?: AbortSignal;
  /** Stop after this many refreshes (default: never). */
  maxRefreshes?: number;
  refreshMs?: number;
  /** How often the market list is read again (new markets, closed ones). */
  relistMs?: number;
  /** Levels per side. */
  levels?: number;
  /** Distance of the best bid and best ask from the fair price, and between levels (bps, YES terms). */
  halfSpreadBps?: number;
  levelStepBps?: number;
  /** Size of the first level; level i quotes (i + 1) times it. Rounded down to lots. */
  baseSize?: bigint;
  /** Largest random move of the fair price per refresh (bps). */
  driftBps?: number;
  maxMarkets?: number;
  /** Markets per batch quote-set replacement (1..20). */
  quoteSetsPerCall?: number;
  /** Pause after a 402 FILL_ALLOWANCE_EXHAUSTED (resting quotes keep filling meanwhile). */
  allowancePauseMs?: number;
  requestTimeoutMs?: number;
  /** Injectable for tests: sleep that resolves early (without throwing) when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  /** Uniform in [0, 1); default a PRNG seeded with `seed`. */
  random?: () => number;
  seed?: number;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}

export interface MarketMakerStats {
  refreshes: number;
  /** Successful replace-quotes writes and the orders they placed. */
  writes: number;
  ordersPlaced: number;
  errors: number;
}

/** One quote in the API's order shape (priceBps in the order's own outcome). */
export interface Quote {
  outcome: 0 | 1;
  side: "buy" | "sell";
  priceBps: number;
  size: bigint;
}

export interface LadderParams {
  levels: number;
  halfSpreadBps: number;
  levelStepBps: number;
  baseSize: bigint;
}

/** Shares the account holds in one market: YES (outcome 0) and NO (outcome 1). */
export interface Inventory {
  yes: bigint;
  no: bigint;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const toLots = (size: bigint) => (size / LOT) * LOT;

/**
 * The ladder around `fairBps` (YES terms): bids below, asks above. A bid is a YES buy, or a NO sell when the held NO
 * shares cover it; an ask is a YES sell when held YES shares cover it, else a NO buy at 10000 − p. Selling what it
 * holds recycles the inventory fills leave it, so its PM is not slowly all locked into shares.
 */
export function ladder(fairBps: number, p: LadderParams, held: Inventory = { yes: 0n, no: 0n }): Quote[] {
  const quotes: Quote[] = [];
  let { yes, no } = held;
  for (let i = 0; i < p.levels; i++) {
    const size = toLots(p.baseSize * BigInt(i + 1));
    if (size <= 0n) continue;
    const bid = Math.round(fairBps - p.halfSpreadBps - i * p.levelStepBps);
    const ask = Math.round(fairBps + p.halfSpreadBps + i * p.levelStepBps);
    if (bid >= 1 && bid <= 9999) {
      if (no >= size) {
        quotes.push({ outcome: 1, side: "sell", priceBps: 10_000 - bid, size });
        no -= size;
      } else quotes.push({ outcome: 0, side: "buy", priceBps: bid, size });
    }
    if (ask >= 1 && ask <= 9999) {
      if (yes >= size) {
        quotes.push({ outcome: 0, side: "sell", priceBps: ask, size });
        yes -= size;
      } else quotes.push({ outcome: 1, side: "buy", priceBps: 10_000 - ask, size });
    }
  }
  return quotes;
}

/** Sleeps `ms`, resolving at once when `signal` aborts; the timer is cleared either way. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** An answer that is not 2xx: status, problem code and the Retry-After (seconds) when the server sent one. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly retryAfterS: number | null,
  ) {
    super(`${status} ${code}${detail ? `: ${detail}` : ""}`);
  }
}

interface MarketRow {
  address: string;
  pricingModel: string;
  state: string;
  settlement?: string;
  outcomes?: { index: number; probability: number | null }[];
}

interface MarketState {
  address: string;
  fairBps: number;
  anchorBps: number;
  /** Sizes are divided by 2^shift after an INSUFFICIENT_BALANCE (down to one lot). */
  sizeShift: number;
}

/** Fair price a market starts at: its last traded YES probability, else a value spread by its address. */
export function startingFair(m: MarketRow): number {
  const p = m.outcomes?.[0]?.probability;
  if (typeof p === "number" && p > 0 && p < 1) return clamp(Math.round(p * 10_000), 500, 9500);
  const h = Number.parseInt(m.address.slice(-6), 16) || 0;
  return 3000 + (h % 4001); // 30%..70%
}

export async function runMarketMaker(opts: MarketMakerOptions): Promise<MarketMakerStats> {
  const signal = opts.signal ?? new AbortController().signal;
  const cfg = {
    maxRefreshes: opts.maxRefreshes ?? Number.POSITIVE_INFINITY,
    refreshMs: opts.refreshMs ?? 3000,
    relistMs: opts.relistMs ?? 60_000,
    levels: opts.levels ?? 3,
    halfSpreadBps: opts.halfSpreadBps ?? 100,
    levelStepBps: opts.levelStepBps ?? 100,
    baseSize: opts.baseSize ?? 10n * SHARE,
    driftBps: opts.driftBps ?? 20,
    maxMarkets: opts.maxMarkets ?? 10,
    quoteSetsPerCall: Math.max(1, Math.min(20, opts.quoteSetsPerCall ?? 20)),
    allowancePauseMs: opts.allowancePauseMs ?? 300_000,
    requestTimeoutMs: opts.requestTimeoutMs ?? 10_000,
  };
  const sleep = opts.sleep ?? abortableSleep;
  const now = opts.now ?? Date.now;
  const random = opts.random ?? seededRandom(opts.seed ?? 20_270_101);
  const doFetch = opts.fetch ?? fetch;
  const log = opts.log ?? ((line: string) => console.error(line));
  const base = opts.baseUrl.replace(/\/+$/, "");
  const stats: MarketMakerStats = { refreshes: 0, writes: 0, ordersPlaced: 0, errors: 0 };

  /** One request with the agent's key, bounded by the timeout and the stop signal; JSON in, JSON out. */
  const call = async (method: "GET" | "POST", path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const ac = new AbortController();
    const stop = () => ac.abort();
    signal.addEventListener("abort", stop, { once: true });
    const timer = setTimeout(stop, cfg.requestTimeoutMs);
    try {
      const headers: Record<string, string> = { authorization: `Bearer ${opts.apiKey}`, accept: "application/json" };
      if (body !== undefined) {
        headers["content-type"] = "application/json";
        headers["idempotency-key"] = `mm-${randomUUID()}`;
      }
      const res = await doFetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: ac.signal });
      const text = await res.text();
      let json: Record<string, unknown> = {};
      try {
        json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        /* not JSON: reported by status below */
      }
      if (!res.ok) {
        const ra = Number(res.headers.get("retry-after"));
        throw new HttpProblem(
          res.status,
          String(json.code ?? "HTTP_ERROR"),
          String(json.detail ?? "").slice(0, 200),
          Number.isFinite(ra) && ra > 0 ? ra : null,
        );
      }
      return json;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
    }
  };

  const markets = new Map<string, MarketState>();
  let listedAt = Number.NEGATIVE_INFINITY;

  const relist = async () => {
    const page = await call("GET", `/discover/markets?pricingModel=ORDERBOOK&marketState=open&pageSize=100`);
    const rows = ((page.markets ?? []) as MarketRow[])
      .filter((m) => m.pricingModel === "ORDERBOOK" && m.state === "open" && (m.settlement ?? "committed") === "committed")
      .slice(0, cfg.maxMarkets);
    const seen = new Set(rows.map((m) => m.address));
    for (const a of [...markets.keys()]) if (!seen.has(a)) markets.delete(a);
    for (const m of rows) {
      if (markets.has(m.address)) continue;
      const fair = startingFair(m);
      markets.set(m.address, { address: m.address, fairBps: fair, anchorBps: fair, sizeShift: 0 });
    }
    listedAt = now();
  };

  /** Shares held per market address, from GET /orderbook/balances (empty on any doubt: then it only buys). */
  const inventory = async (): Promise<Map<string, Inventory>> => {
    const out = new Map<string, Inventory>();
    const body = await call("GET", "/orderbook/balances");
    for (const b of (body.balances ?? []) as { market?: string; outcome?: number; total?: string }[]) {
      if (!b.market || (b.outcome !== 0 && b.outcome !== 1) || !/^\d+$/.test(String(b.total))) continue;
      const key = b.market.toLowerCase();
      const inv = out.get(key) ?? { yes: 0n, no: 0n };
      if (b.outcome === 0) inv.yes += BigInt(b.total!);
      else inv.no += BigInt(b.total!);
      out.set(key, inv);
    }
    return out;
  };

  /** Random walk with a pull back toward the starting price, kept inside 3%..97%. */
  const drift = (m: MarketState) => {
    const step = (random() * 2 - 1) * cfg.driftBps + (m.anchorBps - m.fairBps) * 0.02;
    m.fairBps = clamp(Math.round(m.fairBps + step), 300, 9700);
  };

  const quoteSet = (m: MarketState, held: Inventory | undefined) => {
    drift(m);
    const baseSize = toLots(cfg.baseSize >> BigInt(m.sizeShift)) > 0n ? toLots(cfg.baseSize >> BigInt(m.sizeShift)) : LOT;
    const quotes = ladder(m.fairBps, { levels: cfg.levels, halfSpreadBps: cfg.halfSpreadBps, levelStepBps: cfg.levelStepBps, baseSize }, held);
    return {
      market: m.address,
      orders: quotes.map((q) => ({ outcome: q.outcome, side: q.side, priceBps: String(q.priceBps), size: q.size.toString(), timeInForce: "GTC" })),
    };
  };

  /** One market's refusal: quote smaller after INSUFFICIENT_BALANCE, relist after a gone market; 429/402 pause all. */
  const refused = (m: MarketState, err: HttpProblem) => {
    if (err.status === 429 || err.status === 402) throw err;
    if (err.code === "INSUFFICIENT_BALANCE" && m.sizeShift < 20) m.sizeShift++; // quote smaller next time
    if (err.code === "MARKET_NOT_FOUND" || err.code === "MARKET_CLOSED") listedAt = Number.NEGATIVE_INFINITY;
    fail(`market ${m.address}`, err);
  };

  /** Replaces the quote sets of `group` in one call; each market answers on its own. */
  const quoteGroup = async (group: MarketState[], held: Map<string, Inventory>) => {
    const res = await call("POST", "/orderbook/replace-quotes-batch", { quoteSets: group.map((m) => quoteSet(m, held.get(m.address.toLowerCase()))) });
    const results = (res.results ?? []) as { ok: boolean; orders?: unknown[]; problem?: { status: number; code: string; detail?: string } }[];
    results.forEach((r, i) => {
      if (r.ok) {
        stats.writes++;
        stats.ordersPlaced += Array.isArray(r.orders) ? r.orders.length : 0;
      } else if (r.problem) refused(group[i]!, new HttpProblem(r.problem.status, r.problem.code, r.problem.detail ?? "", null));
    });
  };

  let fail = (_what: string, _err: unknown) => {};

  log(`market maker: quoting ORDERBOOK markets every ${cfg.refreshMs} ms (${cfg.levels} levels a side)`);
  while (!signal.aborted && stats.refreshes < cfg.maxRefreshes) {
    let pauseMs = cfg.refreshMs;
    fail = (what: string, err: unknown) => {
      if (signal.aborted) return;
      stats.errors++;
      log(`market maker: ${what}: ${err instanceof Error ? err.message : String(err)}`);
    };
    try {
      if (now() - listedAt >= cfg.relistMs || markets.size === 0) await relist();
      let held = new Map<string, Inventory>();
      try {
        held = await inventory();
      } catch (err) {
        if (err instanceof HttpProblem && (err.status === 429 || err.status === 402)) throw err;
        fail("balances", err); // quote on: buys only
      }
      const all = [...markets.values()];
      for (let i = 0; i < all.length; i += cfg.quoteSetsPerCall) {
        if (signal.aborted) break;
        const group = all.slice(i, i + cfg.quoteSetsPerCall);
        try {
          await quoteGroup(group, held);
        } catch (err) {
          if (!(err instanceof HttpProblem)) throw err;
          if (group.length === 1) refused(group[0]!, err);
          else if (err.status === 429 || err.status === 402) throw err;
          else fail("quote sets", err);
        }
      }
    } catch (err) {
      if (err instanceof HttpProblem && err.status === 429) pauseMs = Math.max(pauseMs, (err.retryAfterS ?? 1) * 1000);
      if (err instanceof HttpProblem && err.status === 402) pauseMs = Math.max(pauseMs, cfg.allowancePauseMs);
      fail(err instanceof HttpProblem && err.status === 402 ? "fill allowance exhausted, pausing" : "refresh", err);
    }
    stats.refreshes++;
    if (stats.refreshes < cfg.maxRefreshes) await sleep(pauseMs, signal);
  }
  return stats;
}
