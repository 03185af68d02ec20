/**
 * Paying a committed market's holders at finality: resting orders cancelled, every share burned and paid
 * (RESOLUTION_PAYOUT net of winningsExitFeeBps, the fee swept) or refunded (VOID_REFUND at floor(shares / outcomes)).
 * resolveMarket/voidMarket (markets without a lifecycle) and a lifecycle's finality both go through here.
 */
import { COLLATERAL_ASSET, CreditReason, SUPPLY_ACCOUNT, type OutcomeIndex } from "../../decoder";
import { voidPayout } from "../pricing/lmsr";
import { exitFee } from "./fees";
import type { Market } from "./model";
import { cancelResting } from "./resting";
import type { EngineState } from "./state";
import type { PayoutReceipt } from "./types";

// Hot path (once per holder at a market's finality): imported values are read through these locals (transpiled
// CommonJS imports are getter chains).
const SUPPLY = SUPPLY_ACCOUNT;
const COLLATERAL = COLLATERAL_ASSET;
const FEE_SWEEP_REASON = CreditReason.FEE_SWEEP;
const refundOf = voidPayout;
const feeOf = exitFee;

export interface HolderPayouts {
  paid: bigint;
  fees: bigint;
  holders: number;
}

/** Takes every resting order of the market off its book (reason market_closed). */
export function cancelBook(s: EngineState, m: Market, at: number): void {
  for (const o of [...m.book.orders()]) cancelResting(s, o, "cancelled", "market_closed", at);
}

/**
 * Burns every share of `m` and pays it: to `winning` (an outcome index) or, for null, a void refund. Records one
 * receipt per holder in `receipts` (and on the holder's Acct) when given. The market's status is the caller's.
 *
 * The winners' exit fees leave in ONE op after every payout (a `FEE_SWEEP` of their sum from an LMSR pool, a
 * `CREDIT` of it to the treasury on an order book), not one per winner: the same movements in total, a third fewer
 * ops to apply, store and publish when a market pays 100,000 holders. Each holder's fee stays readable on its own:
 * it is `shares − payout` of its winning `RESOLUTION_PAYOUT` (and is in its receipt). Journals written before this
 * hold one fee op per winner; the rebuild's determinism check accepts them (relayer/engine/json.ts, sameOps).
 */
export function payHolders(s: EngineState, m: Market, winning: number | null, at: number, receipts?: PayoutReceipt[]): HolderPayouts {
  // Order-book shares were minted by the supply (MINT), so it pays them; LMSR shares are paid by the pool.
  const source = m.lmsr ? "POOL" : "SUPPLY";
  cancelBook(s, m, at);
  let paid = 0n;
  let fees = 0n;
  let holders = 0;
  const assets = m.assets;
  const outcomes = m.outcomes;
  const feeBps = m.winningsExitFeeBps;
  const kind = winning === null ? "void_refund" : "payout";
  // One undo record for every receipt this command adds (not a closure per holder): each went to the end of the
  // market's list and of its holder's.
  if (receipts) {
    const before = receipts.length;
    s.u.fn(() => {
      for (let i = receipts.length - 1; i >= before; i--) {
        const mine = s.accts.get(receipts[i]!.account)?.receipts;
        mine?.pop();
        if (mine?.length === 0) s.accts.get(receipts[i]!.account)!.receipts = null;
      }
      receipts.length = before;
    });
  }
  for (const a of [...s.accts.values()]) {
    if (a.addr === SUPPLY) continue;
    let receipt: PayoutReceipt | undefined;
    for (let i = 0; i < outcomes; i++) {
      const side = i as OutcomeIndex;
      const shares = a.bals.get(assets[side]!)?.v ?? 0n;
      if (shares <= 0n) continue;
      let out: bigint;
      let fee = 0n;
      if (winning === null) {
        // Void: every share is refunded floor(shares / n), so a full set returns at most one unit of collateral
        // (the remainder stays with the market, as LmsrMarket.redeem rounds).
        out = refundOf(shares, outcomes);
        s.emit({ type: "VOID_REFUND", marketId: m.id, account: a.addr, side, shares, refund: out, source });
      } else if (side === winning) {
        fee = feeOf(shares, feeBps);
        out = shares - fee;
        fees += fee;
        s.emit({ type: "RESOLUTION_PAYOUT", marketId: m.id, account: a.addr, side, shares, payout: out, source });
      } else {
        out = 0n;
        s.emit({ type: "RESOLUTION_PAYOUT", marketId: m.id, account: a.addr, side, shares, payout: out, source });
      }
      paid += out;
      if (receipts) {
        if (receipt === undefined) {
          receipt = { marketId: m.idStr, account: a.addr, shares: new Array<bigint>(outcomes).fill(0n), paid: 0n, fee: 0n, kind, at };
          receipts.push(receipt);
          if (a.receipts) a.receipts.push(receipt);
          else a.receipts = [receipt];
        }
        receipt.shares[i] = shares;
        receipt.paid += out;
        receipt.fee += fee;
      } else if (receipt === undefined) receipt = NO_RECEIPT;
    }
    if (receipt !== undefined) holders++;
  }
  if (fees > 0n) {
    if (m.lmsr) s.emit({ type: "FEE_SWEEP", marketId: m.id, amount: fees });
    else s.emit({ type: "CREDIT", account: s.config.treasury, assetId: COLLATERAL, amount: fees, reason: FEE_SWEEP_REASON });
  }
  return { paid, fees, holders };
}

/** Marks a holder counted when no receipts are kept. */
const NO_RECEIPT = {} as PayoutReceipt;

/** Collateral left in an LMSR market's pool (0 for an order book). */
export function poolResidual(s: EngineState, m: Market): bigint {
  return m.lmsr ? (s.accts.get(m.lmsr.pool)?.bals.get(COLLATERAL)?.v ?? 0n) : 0n;
}
