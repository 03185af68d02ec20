/**
 * What the engine owns, and the two primitives every rule goes through: balance records and `emit`. Every balance
 * change is a movement of an emitted decoder JournalOp (movementsOf); the balances those movements touched are
 * mirrored into `ledger` when it is next read (see Engine.ledger). The concept modules (orders, matching, LMSR trades,
 * markets, allowance, expiry, reports, views) are functions over this state; `Engine` is the façade that owns it.
 */
import type { Address } from "viem";
import { LedgerState, SUPPLY_ACCOUNT, movementsOf, type JournalOp, type MovementContext } from "../../decoder";
import { ExpiryHeap } from "./expiry-heap";
import type { Acct, LcMarket, Market, MBal, Order } from "./model";
import { reject } from "./rejection";
import { KEEP_FINISHED_ORDERS, type EngineConfig, type ExecutionReport, type LifecycleEvent } from "./types";
import { Undo } from "./undo";

// Hot paths read these locals: the transpiled re-exports of ../../decoder are getter chains.
const SUPPLY = SUPPLY_ACCOUNT;
const movementsOfOp = movementsOf;

/** A new account record: no balances, no orders, nothing used of its allowance. */
export function blankAcct(addr: Address, signupAt: number, opened: boolean): Acct {
  return {
    addr,
    signupAt,
    opened,
    seq: 0,
    periodIdx: 0,
    freeUsed: 0,
    paid: 0,
    bals: new Map(),
    openHead: null,
    cids: new Map(),
    done: null,
    doneHead: 0,
    ep: 0,
    receipts: null,
  };
}

export class EngineState {
  readonly ledger = new LedgerState();
  readonly ctx: MovementContext;
  readonly u = new Undo();
  readonly accts = new Map<Address, Acct>();
  readonly markets = new Map<bigint, Market>();
  /**
   * The orders numbered base.. (id `o-<n>` at index n - base; slot 0 unused), undefined once forgotten
   * (./retention.ts): ids are parsed, not hashed. Invariant: base + byN.length === nextOrder (a rollback truncates it
   * back). Held orders numbered below base are in `older`.
   */
  readonly byN: (Order | undefined)[] = [undefined];
  base = 0;
  readonly older = new Map<number, Order>();
  /** Finished orders kept per account (EngineConfig.keepFinished). */
  readonly keepFinished: number;
  readonly expiries = new ExpiryHeap();
  /** Markets with a lifecycle (both lanes), by id. */
  readonly lifecycles = new Map<bigint, LcMarket>();
  /** The council members (lower-case), replaced by setCouncil. */
  council: ReadonlySet<Address> = new Set();
  /** The earliest lifecycle deadline, recomputed when `lcDirty` (any lifecycle change, or a rollback of one). */
  lcNext: number | undefined = undefined;
  lcDirty = false;
  /** Per-command lifecycle events, like `reports` (events[0..nEvents)). */
  readonly events: LifecycleEvent[] = [];
  nEvents = 0;
  nextOrder = 1;
  nextTrade = 1;
  /** Balances changed since the ledger mirror was last brought up to date (each once: `pend`). */
  readonly pending: MBal[] = [];
  // Per-command outputs: reused scratch arrays written by index (ops[0..nOps), reports[0..nReports)), copied out
  // exactly sized when the command succeeds (a fresh `[]` grows a 17-slot backing store on its first push).
  readonly ops: JournalOp[] = [];
  nOps = 0;
  readonly reports: ExecutionReport[] = [];
  nReports = 0;

  constructor(readonly config: EngineConfig) {
    this.ctx = { treasury: config.treasury };
    this.keepFinished = config.keepFinished ?? KEEP_FINISHED_ORDERS;
  }

  newAcct(addr: Address, signupAt: number, opened: boolean): Acct {
    const a = blankAcct(addr, signupAt, opened);
    this.accts.set(addr, a);
    this.u.fn(() => this.accts.delete(addr));
    return a;
  }

  /** The account, created with signupAt = at if it was never seen. */
  acctFor(addr: Address, at: number): Acct {
    return this.accts.get(addr) ?? this.newAcct(addr, at, false);
  }

  /** The balance record of `addr` in `asset`, created (with its account) at zero. */
  bal(addr: Address, asset: bigint): MBal {
    const a = this.accts.get(addr) ?? this.newAcct(addr, 0, false);
    let b = a.bals.get(asset) as MBal | undefined;
    if (!b) {
      const nb: MBal = { v: 0n, r: 0n, ep: 0, addr, asset, pend: false };
      a.bals.set(asset, nb);
      this.u.fn(() => a.bals.delete(asset));
      b = nb;
    }
    return b;
  }

  /**
   * Applies an op's movements to the engine balances (checks: no account but the supply below its reservations) and
   * marks the balances for the ledger mirror (a rolled-back mark is harmless: the mirror copies the restored value).
   */
  emit(op: JournalOp): void {
    const mv = movementsOfOp(op, this.ctx);
    const u = this.u;
    const pending = this.pending;
    for (let i = 0; i < mv.length; i++) {
      const m = mv[i]!;
      const from = this.bal(m.from, m.assetId);
      u.saveBal(from);
      from.v -= m.amount;
      if (from.v < from.r && m.from !== SUPPLY) {
        reject("INSUFFICIENT_BALANCE", `insufficient available balance of asset ${m.assetId} for ${m.from}`, {
          account: m.from,
          assetId: m.assetId.toString(),
          shortBy: (from.r - from.v).toString(),
        });
      }
      const to = this.bal(m.to, m.assetId);
      u.saveBal(to);
      to.v += m.amount;
      if (!from.pend) {
        from.pend = true;
        pending.push(from);
      }
      if (!to.pend) {
        to.pend = true;
        pending.push(to);
      }
    }
    this.ops[this.nOps++] = op;
  }

  /** A trade id `t-<n>` from the trade counter (apply resets it on a rollback). */
  tradeId(): string {
    return `t-${this.nextTrade++}`;
  }
}
