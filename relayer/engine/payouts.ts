/**
 * Paying a committed market's holders at finality: resting orders cancelled, every share burned and paid
 * (RESOLUTION_PAYOUT net of winningsExitFeeBps, the fee swept) or refunded (VOID_REFUND at floor(shares / outcomes)).
 * resolveMarket/voidMarket (markets without a lifecycle) and a lifecycle's finality both go through here.
 */
import type { Address } from "viem";
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
 * receipt per holder in `receipts` when given. The market's status is the caller's.
 */
export function payHolders(s: EngineState, m: Market, winning: number | null, at: number, receipts?: Map<Address, PayoutReceipt>): HolderPayouts {
  // Order-book shares were minted by the supply (MINT), so it pays them; LMSR shares are paid by the pool.
  const source = m.lmsr ? "POOL" : "SUPPLY";
  cancelBook(s, m, at);
  let paid = 0n;
  let fees = 0n;
  let holders = 0;
  const assets = m.assets;
  const treasury = s.config.treasury;
  // One undo record for every receipt this command adds (not a closure per holder).
  const added: Address[] = [];
  if (receipts)
    s.u.fn(() => {
      for (const addr of added) receipts.delete(addr);
    });
  for (const a of [...s.accts.values()]) {
    if (a.addr === SUPPLY) continue;
    let receipt: PayoutReceipt | undefined;
    let held = false;
    for (let i = 0; i < m.outcomes; i++) {
      const side = i as OutcomeIndex;
      const shares = a.bals.get(assets[side]!)?.v ?? 0n;
      if (shares <= 0n) continue;
      held = true;
      let out: bigint;
      let fee = 0n;
      if (winning === null) {
        // Void: every share is refunded floor(shares / n), so a full set returns at most one unit of collateral
        // (the remainder stays with the market, as LmsrMarket.redeem rounds).
        out = refundOf(shares, m.outcomes);
        s.emit({ type: "VOID_REFUND", marketId: m.id, account: a.addr, side, shares, refund: out, source });
      } else {
        const gross = side === winning ? shares : 0n;
        fee = feeOf(gross, m.winningsExitFeeBps);
        out = gross - fee;
        s.emit({ type: "RESOLUTION_PAYOUT", marketId: m.id, account: a.addr, side, shares, payout: out, source });
        if (fee > 0n) {
          if (m.lmsr) s.emit({ type: "FEE_SWEEP", marketId: m.id, amount: fee });
          else s.emit({ type: "CREDIT", account: treasury, assetId: COLLATERAL, amount: fee, reason: FEE_SWEEP_REASON });
        }
      }
      paid += out;
      fees += fee;
      if (receipts) {
        receipt ??= {
          marketId: m.idStr,
          account: a.addr,
          shares: new Array<bigint>(m.outcomes).fill(0n),
          paid: 0n,
          fee: 0n,
          kind: winning === null ? "void_refund" : "payout",
          at,
        };
        receipt.shares[i] = shares;
        receipt.paid += out;
        receipt.fee += fee;
      }
    }
    if (held) holders++;
    if (receipt && receipts) {
      receipts.set(a.addr, receipt);
      added.push(a.addr);
    }
  }
  return { paid, fees, holders };
}

/** Collateral left in an LMSR market's pool (0 for an order book). */
export function poolResidual(s: EngineState, m: Market): bigint {
  return m.lmsr ? (s.accts.get(m.lmsr.pool)?.bals.get(COLLATERAL)?.v ?? 0n) : 0n;
}
