/**
 * npm run bench:engine — throughput and latency of the exchange engine's matching path on one order book, against
 * the devDependency nodejs-order-book fed the same stream in the same run. Prints one JSON line.
 *
 * Stream (fixed seed, exchange-core-like): ~70% placements of resting limit orders (YES buys below the mid as bids,
 * NO buys above it as asks), ~10% crossing IOC orders from a taker account that never rests (1..4 levels deep),
 * ~20% cancels of live resting orders. Every placement is a whole engine command: validation, reservation,
 * matching, fee, MATCH op, balance movements mirrored into the decoder LedgerState, execution reports, undo log.
 */
import { performance } from "node:perf_hooks";
import { OrderBook } from "nodejs-order-book";
import type { Address } from "viem";
import { Book } from "../relayer/engine/book";
import type { Acct, Bal, Market, Order } from "../relayer/engine/model";
import { Engine } from "../relayer/engine/engine";
import { blankAcct } from "../relayer/engine/state";
import { Undo } from "../relayer/engine/undo";
import type { Command } from "../relayer/engine/types";
import { z } from "zod";
import { scriptEnv } from "./env";
import { seededRandom } from "../relayer/seeded-random";

const OPS = scriptEnv({ BENCH_ENGINE_OPS: z.coerce.number().int().positive().default(200_000) }).BENCH_ENGINE_OPS;
const SEED = 20_261_122;
const MAKERS = 64;
const LOT = 10_000n;
const MARKET = 1n;
const TREASURY = ("0x" + "7".repeat(40)) as Address;
const TAKER = ("0x" + "f".repeat(40)) as Address;
const makers: Address[] = Array.from({ length: MAKERS }, (_, i) => `0x${(i + 1).toString(16).padStart(40, "0")}` as Address);

/** One stream op, engine-independent: YES-terms side and price, size in lots. */
type StreamOp = { k: "place"; id: string; acct: number; bid: boolean; y: number; lots: number; ioc: boolean } | { k: "cancel"; id: string; acct: number };

/** Applies a command the stream needs accepted (the timed passes replay an accepted stream and skip the check). */
function mustApply(e: Engine, c: Command, at: number): void {
  const r = e.apply(c, at);
  if (!r.ok) throw new Error(`${c.type} refused: ${r.code} ${r.message}`);
}

function newEngine(): Engine {
  const e = new Engine({ treasury: TREASURY, allowance: { enabled: false, freePerPeriod: 0, periodMs: 604_800_000 } });
  for (const a of [...makers, TAKER]) {
    mustApply(e, { type: "openAccount", account: a, signupAt: 0 }, 0);
    mustApply(e, { type: "credit", account: a, amount: 10n ** 18n, reason: "GRANT" }, 0);
  }
  mustApply(
    e,
    {
      type: "createMarket",
      marketId: MARKET,
      pricing: "ORDERBOOK",
      outcomes: 2,
      feeModel: "notional-v1",
      takerFeeBps: 50,
      sellExitFeeBps: 0,
      winningsExitFeeBps: 0,
    },
    0,
  );
  return e;
}

function toCommand(op: StreamOp): Command {
  if (op.k === "cancel") return { type: "cancelOrder", account: makers[op.acct]!, orderId: op.id };
  const account = op.acct < 0 ? TAKER : makers[op.acct]!;
  // Bids are YES buys at y; asks are NO buys at 10000 - y.
  return {
    type: "placeOrder",
    account,
    marketId: MARKET,
    outcome: op.bid ? 0 : 1,
    action: "buy",
    priceBps: op.bid ? op.y : 10_000 - op.y,
    size: BigInt(op.lots) * LOT,
    tif: op.ioc ? "IOC" : "GTC",
  };
}

/** Builds the stream by running it once, so cancels target orders that are still live. */
function buildStream(): StreamOp[] {
  const rnd = seededRandom(SEED);
  const e = newEngine();
  const live: { id: string; acct: number }[] = [];
  const ops: StreamOp[] = [];
  let n = 0;
  for (let i = 0; i < OPS; i++) {
    const r = rnd();
    let op: StreamOp;
    if (r < 0.2 && live.length > 0) {
      const j = Math.floor(rnd() * live.length);
      const pick = live[j]!;
      live[j] = live[live.length - 1]!;
      live.pop();
      if (e.order(pick.id)!.status !== "open" && e.order(pick.id)!.status !== "partially_filled") {
        i--;
        continue;
      }
      op = { k: "cancel", id: pick.id, acct: pick.acct };
    } else if (r < 0.3) {
      const bid = rnd() < 0.5;
      op = {
        k: "place",
        id: `o-${++n}`,
        acct: -1,
        bid,
        y: bid ? 5_000 + 1 + Math.floor(rnd() * 4) : 5_000 - 1 - Math.floor(rnd() * 4),
        lots: 1 + Math.floor(rnd() * 20),
        ioc: true,
      };
    } else {
      const bid = rnd() < 0.5;
      const off = 1 + Math.floor(rnd() * 50);
      const acct = Math.floor(rnd() * MAKERS);
      op = { k: "place", id: `o-${++n}`, acct, bid, y: bid ? 5_000 - off : 5_000 + off, lots: 1 + Math.floor(rnd() * 10), ioc: false };
      live.push({ id: op.id, acct });
    }
    mustApply(e, toCommand(op), 1);
    ops.push(op);
  }
  return ops;
}

function runEngine(cmds: Command[], timed: boolean): { secs: number; lat: Float64Array } {
  const e = newEngine();
  const lat = new Float64Array(timed ? cmds.length : 0);
  const t0 = performance.now();
  if (timed) {
    for (let i = 0; i < cmds.length; i++) {
      const s = performance.now();
      e.apply(cmds[i]!, 1);
      lat[i] = performance.now() - s;
    }
  } else for (let i = 0; i < cmds.length; i++) e.apply(cmds[i]!, 1);
  return { secs: (performance.now() - t0) / 1000, lat };
}

function runReference(ops: StreamOp[]): number {
  const ob = new OrderBook();
  const t0 = performance.now();
  for (const op of ops) {
    if (op.k === "cancel") ob.cancel(op.id);
    else ob.limit({ id: op.id, side: op.bid ? "buy" : "sell", size: op.lots, price: op.y, timeInForce: op.ioc ? "IOC" : "GTC" } as never);
  }
  return (performance.now() - t0) / 1000;
}

/**
 * The matching core alone: the engine's Book (bps-indexed levels, FIFO lists, undo log per op) plus the reservation
 * arithmetic on the engine's Bal records, without command validation, ops, reports or the ledger mirror.
 */
function runCore(ops: StreamOp[]): number {
  const u = new Undo();
  const book = new Book(u);
  const accts: Acct[] = [...makers, TAKER].map((addr) => blankAcct(addr, 0, true));
  const bals: Bal[] = accts.map((a) => {
    const b: Bal = { v: 10n ** 18n, r: 0n, ep: 0 };
    a.bals.set(0n, b);
    return b;
  });
  const mkt = { id: MARKET } as unknown as Market;
  const byId = new Map<string, Order>();
  let n = 0;
  const t0 = performance.now();
  for (const op of ops) {
    u.begin();
    if (op.k === "cancel") {
      const o = byId.get(op.id);
      if (!o) continue;
      byId.delete(op.id);
      const b = bals[op.acct]!;
      u.saveBal(b);
      b.r -= o.res;
      book.remove(o);
      continue;
    }
    const ai = op.acct < 0 ? MAKERS : op.acct;
    const size = BigInt(op.lots) * LOT;
    const price = op.bid ? op.y : 10_000 - op.y;
    const o: Order = {
      id: op.id,
      n: ++n,
      acct: accts[ai]!,
      mkt,
      outcome: op.bid ? 0 : 1,
      action: "buy",
      price,
      size,
      tif: op.ioc ? "IOC" : "GTC",
      postOnly: false,
      createdAt: 0,
      side: op.bid ? 0 : 1,
      y: op.y,
      resAsset: 0n,
      rem: size,
      filled: 0n,
      status: "open",
      updatedAt: 0,
      res: 0n,
      prev: null,
      next: null,
      dead: false,
      ep: u.ep,
    };
    const tb = bals[ai]!;
    if (op.bid) {
      while (o.rem > 0n && book.bestAsk <= o.y) {
        const m = book.asks[book.bestAsk]!.head!;
        const f = o.rem < m.rem ? o.rem : m.rem;
        u.saveOrder(m);
        m.rem -= f;
        const mb = m.acct.bals.get(0n)!;
        u.saveBal(mb);
        const newRes = (m.rem * BigInt(m.price)) / 10_000n;
        mb.r -= m.res - newRes;
        m.res = newRes;
        const cost = (f * BigInt(m.price)) / 10_000n;
        mb.v -= cost;
        u.saveBal(tb);
        tb.v -= f - cost;
        o.rem -= f;
        if (m.rem === 0n) {
          book.remove(m);
          byId.delete(m.id);
        }
      }
    } else {
      while (o.rem > 0n && book.bestBid >= o.y) {
        const m = book.bids[book.bestBid]!.head!;
        const f = o.rem < m.rem ? o.rem : m.rem;
        u.saveOrder(m);
        m.rem -= f;
        const mb = m.acct.bals.get(0n)!;
        u.saveBal(mb);
        const newRes = (m.rem * BigInt(m.price)) / 10_000n;
        mb.r -= m.res - newRes;
        m.res = newRes;
        const cost = (f * BigInt(m.price)) / 10_000n;
        mb.v -= cost;
        u.saveBal(tb);
        tb.v -= f - cost;
        o.rem -= f;
        if (m.rem === 0n) {
          book.remove(m);
          byId.delete(m.id);
        }
      }
    }
    if (o.rem > 0n && !op.ioc) {
      o.res = (o.rem * BigInt(price)) / 10_000n;
      u.saveBal(tb);
      tb.r += o.res;
      book.insert(o);
      byId.set(o.id, o);
    }
  }
  return (performance.now() - t0) / 1000;
}

function pct(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const ops = buildStream();
const cmds = ops.map(toCommand);
// Warm both up, then take the best of three passes each.
runEngine(cmds, false);
runReference(ops);
runCore(ops);
let engineSecs = Infinity;
let refSecs = Infinity;
let coreSecs = Infinity;
for (let i = 0; i < 3; i++) {
  engineSecs = Math.min(engineSecs, runEngine(cmds, false).secs);
  refSecs = Math.min(refSecs, runReference(ops));
  coreSecs = Math.min(coreSecs, runCore(ops));
}
const lat = runEngine(cmds, true).lat.sort();
const opsPerSec = Math.round(cmds.length / engineSecs);
const refOpsPerSec = Math.round(ops.length / refSecs);
const fills = ops.filter((o) => o.k === "place" && o.ioc).length;
console.log(
  JSON.stringify({
    bench: "engine",
    path: "full-command",
    ops: cmds.length,
    crossingOrders: fills,
    opsPerSec,
    p50Us: Math.round(pct(lat, 0.5) * 1000 * 100) / 100,
    p99Us: Math.round(pct(lat, 0.99) * 1000 * 100) / 100,
    nodejsOrderBookOpsPerSec: refOpsPerSec,
    ratio: Math.round((opsPerSec / refOpsPerSec) * 100) / 100,
    coreOpsPerSec: Math.round(ops.length / coreSecs),
    coreRatio: Math.round((ops.length / coreSecs / refOpsPerSec) * 100) / 100,
  }),
);
