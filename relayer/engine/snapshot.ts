/**
 * A snapshot of the engine's state (docs/journal.md "Snapshots"): every record the engine holds, as JSON text, so a
 * restart restores it and replays only the journal entries after it instead of the whole journal.
 *
 * The restored engine must answer every later command exactly as the snapshotted one would, so the snapshot keeps what
 * behaviour can depend on: the insertion order of every map (accounts, balances, markets, lifecycles, clientOrderIds),
 * each level's FIFO queue, each account's resting list and its queue of finished orders still held, and the order
 * numbers' window (`base`). It leaves out what cannot matter: the undo log and epochs (empty between commands), the
 * per-command scratch arrays, stale heap entries (orders no longer resting; ./expiry.ts drops them too), the ledger
 * mirror (rebuilt from the balances) and the queue's already-forgotten head. Bigints travel as decimal strings,
 * converted field by field: `Snap<T>` makes the compiler name any bigint field left unconverted.
 */
import type { Address, Hex } from "viem";
import { stringifyJson } from "../../decoder";
import type { MarketLifecycle, VoteSession } from "../lifecycle";
import type { FinalSettlement, PayoutReceipt } from "./lifecycle-types";
import { blankAcct, type EngineState } from "./state";
import type { Acct, LcMarket, Market, MBal, Order } from "./model";
import { Book } from "./book";
import { isResting } from "./model";
import { openAdd } from "./resting";

/** Bumped whenever the snapshot's layout changes: a snapshot of another version is not restored (the journal is). */
export const SNAPSHOT_VERSION = 1;

/** T with every bigint as its decimal string and nothing read-only: the snapshot's JSON form of a record. */
type Snap<T> = T extends bigint ? string : T extends readonly (infer E)[] ? Snap<E>[] : T extends object ? { -readonly [K in keyof T]: Snap<T[K]> } : T;

interface OrderSnap {
  n: number;
  acct: Address;
  mkt: string;
  cid?: string;
  outcome: Order["outcome"];
  action: Order["action"];
  price: number;
  size: string;
  tif: Order["tif"];
  expiresAt?: number;
  postOnly: boolean;
  createdAt: number;
  side: 0 | 1;
  y: number;
  resAsset: string;
  rem: string;
  filled: string;
  status: Order["status"];
  updatedAt: number;
  res: string;
  dead?: true;
}

interface AcctSnap {
  addr: Address;
  signupAt: number;
  opened: boolean;
  seq: number;
  periodIdx: number;
  freeUsed: number;
  paid: number;
  /** [asset, total, reserved] in the map's order. */
  bals: [string, string, string][];
  /** Resting orders in list order (newest first). */
  open: number[];
  cids: [string, number][];
  /** Finished orders still held, oldest first. */
  done: number[] | null;
  receipts: Snap<PayoutReceipt>[] | null;
}

interface MarketSnap {
  id: string;
  pricing: Market["pricing"];
  outcomes: number;
  feeModel: Market["feeModel"];
  takerFeeBps: number;
  sellExitFeeBps: number;
  winningsExitFeeBps: number;
  createdAt: number;
  status: Market["status"];
  winningOutcome?: number;
  assets: string[];
  lmsr?: Snap<NonNullable<Market["lmsr"]>>;
  closeAt: number;
  /** Per side, each level's orders in FIFO order: [price (YES terms), order numbers]. */
  bids: [number, number[]][];
  asks: [number, number[]][];
}

interface LcSnap {
  id: string;
  lane: LcMarket["lane"];
  terms: Snap<LcMarket["terms"]>;
  lc: Snap<MarketLifecycle>;
  salts: [string, Hex][];
  receipts: Snap<PayoutReceipt>[];
  finalAt: number | null;
  settlement: Snap<FinalSettlement> | null;
  collected: string;
}

export interface EngineSnapshot {
  version: number;
  /** The engine configuration it ran under (JSON): restored only under the same one. */
  config: string;
  nextOrder: number;
  nextTrade: number;
  base: number;
  council: Address[];
  accounts: AcctSnap[];
  markets: MarketSnap[];
  lifecycles: LcSnap[];
  /** Every order held: the window's (n >= base, ascending), then those kept below it (the map's order). */
  orders: OrderSnap[];
  /** Resting GTD orders by (expiresAt, n). */
  expiries: number[];
}

const dec = (v: bigint): string => v.toString();
const big = (s: string): bigint => BigInt(s);

const receiptSnap = (r: PayoutReceipt): Snap<PayoutReceipt> => ({ ...r, shares: r.shares.map(dec), paid: dec(r.paid), fee: dec(r.fee) });
const receiptOf = (r: Snap<PayoutReceipt>): PayoutReceipt => ({ ...r, shares: r.shares.map(big), paid: big(r.paid), fee: big(r.fee) });

function voteSnap(v: VoteSession): Snap<VoteSession> {
  return { ...v, ballots: v.ballots.map((b) => ({ ...b, stake: dec(b.stake) })) };
}
function voteOf(v: Snap<VoteSession>): VoteSession {
  return { ...v, ballots: v.ballots.map((b) => ({ ...b, stake: big(b.stake) })) };
}
function lcSnap(lc: MarketLifecycle): Snap<MarketLifecycle> {
  return {
    ...lc,
    creationBond: dec(lc.creationBond),
    bonds: { creator: dec(lc.bonds.creator), challenger: dec(lc.bonds.challenger) },
    vote: lc.vote && voteSnap(lc.vote),
    voterPool: dec(lc.voterPool),
  };
}
function lcOf(lc: Snap<MarketLifecycle>): MarketLifecycle {
  return {
    ...lc,
    creationBond: big(lc.creationBond),
    bonds: { creator: big(lc.bonds.creator), challenger: big(lc.bonds.challenger) },
    vote: lc.vote && voteOf(lc.vote),
    voterPool: big(lc.voterPool),
  };
}

function orderSnap(o: Order): OrderSnap {
  const x: OrderSnap = {
    n: o.n,
    acct: o.acct.addr,
    mkt: o.mkt.idStr,
    outcome: o.outcome,
    action: o.action,
    price: o.price,
    size: dec(o.size),
    tif: o.tif,
    postOnly: o.postOnly,
    createdAt: o.createdAt,
    side: o.side,
    y: o.y,
    resAsset: dec(o.resAsset),
    rem: dec(o.rem),
    filled: dec(o.filled),
    status: o.status,
    updatedAt: o.updatedAt,
    res: dec(o.res),
  };
  if (o.cid !== undefined) x.cid = o.cid;
  if (o.expiresAt !== undefined) x.expiresAt = o.expiresAt;
  if (o.dead) x.dead = true;
  return x;
}

function levelsSnap(levels: Book<Order>["bids"]): [number, number[]][] {
  const out: [number, number[]][] = [];
  levels.forEach((lv, y) => {
    if (!lv?.head) return;
    const ns: number[] = [];
    for (let o: Order | null = lv.head; o; o = o.next) ns.push(o.n);
    out.push([y, ns]);
  });
  return out;
}

/** The fields a market's record and its snapshot share, in the record's order (./markets.ts builds it so). */
function marketTerms(m: Market | MarketSnap) {
  return {
    pricing: m.pricing,
    outcomes: m.outcomes,
    feeModel: m.feeModel,
    takerFeeBps: m.takerFeeBps,
    sellExitFeeBps: m.sellExitFeeBps,
    winningsExitFeeBps: m.winningsExitFeeBps,
    createdAt: m.createdAt,
    status: m.status,
  };
}

function marketSnap(m: Market): MarketSnap {
  const x: MarketSnap = {
    id: m.idStr,
    ...marketTerms(m),
    assets: m.assets.map(dec),
    closeAt: m.closeAt,
    bids: levelsSnap(m.book.bids),
    asks: levelsSnap(m.book.asks),
  };
  if (m.winningOutcome !== undefined) x.winningOutcome = m.winningOutcome;
  if (m.lmsr) x.lmsr = { b: dec(m.lmsr.b), q: m.lmsr.q.map(dec), funder: m.lmsr.funder, pool: m.lmsr.pool, seed: dec(m.lmsr.seed) };
  return x;
}

function acctSnap(a: Acct): AcctSnap {
  const open: number[] = [];
  for (let o = a.openHead ?? null; o; o = o.aNext ?? null) open.push(o.n);
  return {
    addr: a.addr,
    signupAt: a.signupAt,
    opened: a.opened,
    seq: a.seq,
    periodIdx: a.periodIdx,
    freeUsed: a.freeUsed,
    paid: a.paid,
    bals: [...a.bals].map(([asset, b]) => [dec(asset), dec(b.v), dec(b.r)]),
    open,
    cids: [...a.cids].map(([cid, o]) => [cid, o.n]),
    done: a.done ? a.done.slice(a.doneHead).map((o) => o!.n) : null,
    receipts: a.receipts ? a.receipts.map(receiptSnap) : null,
  };
}

function lcMarketSnap(lm: LcMarket): LcSnap {
  const t = lm.terms;
  return {
    id: lm.idStr,
    lane: lm.lane,
    terms: { ...t, seed: t.seed === null ? null : dec(t.seed) },
    lc: lcSnap(lm.lc),
    salts: [...lm.salts],
    receipts: lm.receipts.map(receiptSnap),
    finalAt: lm.finalAt,
    settlement: lm.settlement && { ...lm.settlement, paid: dec(lm.settlement.paid), fees: dec(lm.settlement.fees) },
    collected: dec(lm.collected),
  };
}

/** The snapshot of the state between two commands. */
export function snapshotOf(s: EngineState): EngineSnapshot {
  const orders: OrderSnap[] = [];
  for (const o of s.byN) if (o !== undefined) orders.push(orderSnap(o));
  for (const o of s.older.values()) orders.push(orderSnap(o));
  const expiries = s.expiries.a
    .filter((o) => !o.dead && isResting(o))
    .sort((x, y) => x.expiresAt! - y.expiresAt! || x.n - y.n)
    .map((o) => o.n);
  return {
    version: SNAPSHOT_VERSION,
    config: stringifyJson(s.config),
    nextOrder: s.nextOrder,
    nextTrade: s.nextTrade,
    base: s.base,
    council: [...s.council],
    accounts: [...s.accts.values()].map(acctSnap),
    markets: [...s.markets.values()].map(marketSnap),
    lifecycles: [...s.lifecycles.values()].map(lcMarketSnap),
    orders,
    expiries,
  };
}

/**
 * Records per part of a snapshot's text. A part is one JSON string, and V8 caps a string near 512 MB: as one text, a
 * snapshot could hold at most about 1.5 million orders. Parts of 50,000 records are about 17 MB of orders each.
 */
export const SNAPSHOT_PART_RECORDS = 50_000;

const SECTIONS = ["accounts", "markets", "lifecycles", "orders", "expiries"] as const;
type Section = (typeof SECTIONS)[number];

/**
 * The snapshot as JSON texts: the head (everything but the record lists, with each list's length), then each list in
 * parts of at most `perPart` records, `{"<list>":[...]}`, in order.
 */
export function snapshotParts(x: EngineSnapshot, perPart = SNAPSHOT_PART_RECORDS): string[] {
  const { accounts, markets, lifecycles, orders, expiries, ...head } = x;
  const lists: Record<Section, unknown[]> = { accounts, markets, lifecycles, orders, expiries };
  const counts = Object.fromEntries(SECTIONS.map((k) => [k, lists[k].length]));
  const parts = [JSON.stringify({ ...head, counts })];
  for (const k of SECTIONS) for (let i = 0; i < lists[k].length; i += perPart) parts.push(JSON.stringify({ [k]: lists[k].slice(i, i + perPart) }));
  return parts;
}

/** The snapshot from its parts (snapshotParts); throws SnapshotError when a list does not add up to its length. */
export function snapshotFromParts(parts: readonly string[]): EngineSnapshot {
  if (parts.length === 0) throw new SnapshotError("no parts");
  const { counts, ...head } = JSON.parse(parts[0]) as Omit<EngineSnapshot, Section> & { counts: Record<Section, number> };
  const lists: Record<Section, unknown[]> = { accounts: [], markets: [], lifecycles: [], orders: [], expiries: [] };
  for (let i = 1; i < parts.length; i++) {
    const part = JSON.parse(parts[i]!) as Partial<Record<Section, unknown[]>>;
    for (const k of SECTIONS) for (const r of part[k] ?? []) lists[k].push(r);
  }
  for (const k of SECTIONS) if (lists[k].length !== counts?.[k]) throw new SnapshotError(`${lists[k].length} ${k} in the parts, the head says ${counts?.[k]}`);
  return { ...head, ...lists } as EngineSnapshot;
}

/** A snapshot that cannot be restored: another version or configuration, or records that do not fit together. */
export class SnapshotError extends Error {
  constructor(message: string) {
    super(`engine snapshot: ${message}`);
    this.name = "SnapshotError";
  }
}

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new SnapshotError(`${what} is missing`);
  return v;
}

/**
 * Fills the fresh state `s` (an engine that has applied nothing) with the snapshot's records. Records are built with
 * the same fields in the same order as the commands build them, so the hot paths see the same object shapes.
 */
export function restoreInto(s: EngineState, x: EngineSnapshot): void {
  if (x.version !== SNAPSHOT_VERSION) throw new SnapshotError(`version ${x.version}, this engine reads ${SNAPSHOT_VERSION}`);
  if (x.config !== stringifyJson(s.config)) throw new SnapshotError(`taken under the engine configuration ${x.config}, not ${stringifyJson(s.config)}`);
  if (s.accts.size > 0 || s.nextOrder !== 1) throw new SnapshotError("restored only into a fresh engine");
  for (const a of x.accounts) {
    const acct = blankAcct(a.addr, a.signupAt, a.opened);
    acct.seq = a.seq;
    acct.periodIdx = a.periodIdx;
    acct.freeUsed = a.freeUsed;
    acct.paid = a.paid;
    for (const [asset, v, r] of a.bals) {
      const b: MBal = { v: big(v), r: big(r), ep: 0, addr: a.addr, asset: big(asset), pend: true };
      acct.bals.set(b.asset, b);
      s.pending.push(b); // the ledger mirror copies every balance at its next read
    }
    if (a.receipts) acct.receipts = a.receipts.map(receiptOf);
    s.accts.set(a.addr, acct);
  }
  for (const m of x.markets) {
    const id = big(m.id);
    const l = m.lmsr;
    const mkt: Market = {
      id,
      idStr: m.id,
      ...marketTerms(m),
      book: new Book(s.u),
      assets: m.assets.map(big),
      lmsr: l && { b: big(l.b), q: l.q.map(big), funder: l.funder, pool: l.pool, seed: big(l.seed) },
      closeAt: m.closeAt,
      ep: 0,
    };
    if (m.winningOutcome !== undefined) mkt.winningOutcome = m.winningOutcome;
    s.markets.set(id, mkt);
  }
  for (const l of x.lifecycles) {
    const id = big(l.id);
    const mkt = l.lane === "committed" ? need(s.markets.get(id), `market ${l.id} of a committed lifecycle`) : undefined;
    const lm: LcMarket = {
      id,
      idStr: l.id,
      lane: l.lane,
      terms: { ...l.terms, seed: l.terms.seed === null ? null : big(l.terms.seed) },
      mkt,
      lc: lcOf(l.lc),
      salts: new Map(l.salts),
      receipts: l.receipts.map(receiptOf),
      finalAt: l.finalAt,
      settlement: l.settlement && { ...l.settlement, paid: big(l.settlement.paid), fees: big(l.settlement.fees) },
      collected: big(l.collected),
      ep: 0,
    };
    s.lifecycles.set(id, lm);
    if (mkt) mkt.lcm = lm;
  }
  s.lcDirty = true;
  s.council = new Set(x.council);
  s.nextTrade = x.nextTrade;
  restoreOrders(s, x);
}

function restoreOrders(s: EngineState, x: EngineSnapshot): void {
  s.base = x.base;
  s.nextOrder = x.nextOrder;
  s.byN.length = 0;
  for (let i = x.base; i < x.nextOrder; i++) s.byN.push(undefined); // packed, as the pushes of new orders keep it
  const byN = new Map<number, Order>();
  for (const y of x.orders) {
    const acct = need(s.accts.get(y.acct), `account ${y.acct} of order ${y.n}`);
    const o: Order = {
      id: `o-${y.n}`,
      n: y.n,
      acct,
      mkt: need(s.markets.get(big(y.mkt)), `market ${y.mkt} of order ${y.n}`),
      cid: y.cid,
      outcome: y.outcome,
      action: y.action,
      price: y.price,
      size: big(y.size),
      tif: y.tif,
      expiresAt: y.expiresAt,
      postOnly: y.postOnly,
      createdAt: y.createdAt,
      side: y.side,
      y: y.y,
      resAsset: big(y.resAsset),
      rem: big(y.rem),
      filled: big(y.filled),
      status: y.status,
      updatedAt: y.updatedAt,
      res: big(y.res),
      prev: null,
      next: null,
      dead: y.dead === true,
      ep: 0,
      aPrev: null,
      aNext: null,
    };
    byN.set(o.n, o);
    if (o.n >= x.base) s.byN[o.n - x.base] = o;
    else s.older.set(o.n, o);
  }
  const order = (n: number, where: string) => need(byN.get(n), `order ${n} (${where})`);
  // Books and resting lists are rebuilt through their own code (inside an empty command, so the undo log is dropped).
  s.u.begin();
  for (const m of x.markets) {
    const book = s.markets.get(big(m.id))!.book;
    for (const [, ns] of m.bids) for (const n of ns) book.insert(order(n, `bid of market ${m.id}`));
    for (const [, ns] of m.asks) for (const n of ns) book.insert(order(n, `ask of market ${m.id}`));
  }
  for (const a of x.accounts) {
    const acct = s.accts.get(a.addr)!;
    for (let i = a.open.length - 1; i >= 0; i--) openAdd(s, acct, order(a.open[i]!, `resting list of ${a.addr}`));
    for (const [cid, n] of a.cids) acct.cids.set(cid, order(n, `clientOrderId ${cid} of ${a.addr}`));
    if (a.done) acct.done = a.done.map((n) => order(n, `finished orders of ${a.addr}`));
  }
  s.u.commit();
  for (const n of x.expiries) s.expiries.push(order(n, "expiry"));
}
