/**
 * A market's life in the engine: creation (with the LMSR pool's seed), the guards every trade passes (exists, open,
 * the right pricing), and settlement (resolution or void: resting orders cancelled, every share burned and paid).
 * The lifecycle commands still to come (closing, the creator's proposal, challenges, ballots, the council's act,
 * finality, bond locks and returns) belong here, each a function its handler in ./commands.ts calls.
 */
import {
  COLLATERAL_ASSET,
  CreditReason,
  MAX_MARKET_ID,
  MAX_OUTCOMES,
  SUPPLY_ACCOUNT,
  isOutcomeIndex,
  outcomeAssetId,
  poolAccountOf,
  type OutcomeIndex,
} from "../../decoder";
import { Book } from "./book";
import { MAX_FEE_BPS, exitFee } from "./fees";
import type { Market } from "./model";
import { bFromSeed, voidPayout } from "../pricing/lmsr";
import { invalid, reject } from "./rejection";
import { cancelResting } from "./resting";
import type { EngineState } from "./state";
import type { CreateMarketCommand, MarketView, SettleResult } from "./types";
import { addressOf, isInt } from "./validation";
import { marketView } from "./views";

export function createMarket(s: EngineState, c: CreateMarketCommand, at: number): MarketView {
  if (typeof c.marketId !== "bigint" || c.marketId < 1n || c.marketId > MAX_MARKET_ID) return invalid("marketId must be a bigint 1..2^64-1");
  if (s.markets.has(c.marketId)) return reject("MARKET_EXISTS", `market ${c.marketId} exists`, {});
  if (c.pricing !== "ORDERBOOK" && c.pricing !== "LMSR") return invalid("pricing must be ORDERBOOK or LMSR");
  // The book is binary (MINT/MERGE pair an outcome with its complement); the LMSR pool prices 2 or 3 outcomes, as the
  // on-chain LmsrMarket does, and the ledger has an asset per outcome index 0..MAX_OUTCOMES-1.
  if (c.pricing === "ORDERBOOK" && c.outcomes !== 2) return invalid("ORDERBOOK markets are binary (outcomes = 2); use LMSR for 3 outcomes", { field: "outcomes" });
  if (c.pricing === "LMSR" && c.outcomes !== 2 && c.outcomes !== 3) return invalid(`LMSR markets have 2 or 3 outcomes (max ${MAX_OUTCOMES})`, { field: "outcomes" });
  const n = c.outcomes;
  let lmsr: Market["lmsr"];
  if (c.pricing === "LMSR") {
    if (typeof c.seed !== "bigint" || c.seed <= 0n || c.seed > 10n ** 30n) return invalid("LMSR markets need a positive bigint seed");
    const funder = addressOf(c.funder, "funder");
    lmsr = { b: bFromSeed(c.seed, n), q: new Array<bigint>(n).fill(0n), funder, pool: poolAccountOf(c.marketId), seed: c.seed };
  } else if (c.seed !== undefined || c.funder !== undefined) return invalid("seed and funder are for LMSR markets");
  if (c.feeModel !== "notional-v1" && c.feeModel !== "shares-v2") return invalid("feeModel must be notional-v1 or shares-v2");
  for (const f of ["takerFeeBps", "sellExitFeeBps", "winningsExitFeeBps"] as const) {
    // The on-chain factory's cap (LmsrFactory.MAX_FEE_BPS): both lanes stamp fees in the same range.
    if (!isInt(c[f], 0, MAX_FEE_BPS)) return invalid(`${f} must be an integer 0..${MAX_FEE_BPS}`, { field: f });
  }
  const id = c.marketId;
  const m: Market = {
    id,
    idStr: id.toString(),
    pricing: c.pricing,
    outcomes: n,
    feeModel: c.feeModel,
    takerFeeBps: c.takerFeeBps,
    sellExitFeeBps: c.sellExitFeeBps,
    winningsExitFeeBps: c.winningsExitFeeBps,
    createdAt: at,
    status: "open",
    book: new Book(s.u),
    assets: Array.from({ length: n }, (_, i) => outcomeAssetId(id, i as OutcomeIndex)),
    lmsr,
    ep: 0,
  };
  s.markets.set(id, m);
  s.u.fn(() => s.markets.delete(id));
  if (lmsr) s.emit({ type: "MARKET_SEED", marketId: id, funder: lmsr.funder, amount: lmsr.seed });
  return marketView(m);
}

/** The market, which must exist and be open. */
export function openMarket(s: EngineState, marketId: unknown): Market {
  if (typeof marketId !== "bigint") return invalid("marketId must be a bigint");
  const m = s.markets.get(marketId);
  if (!m) return reject("MARKET_NOT_FOUND", `market ${marketId} not found`, {});
  if (m.status !== "open") return reject("MARKET_CLOSED", `market ${marketId} is ${m.status}`, {});
  return m;
}

/** An open ORDERBOOK market (orders are refused on LMSR markets). */
export function tradableMarket(s: EngineState, marketId: unknown): Market {
  const m = openMarket(s, marketId);
  if (m.pricing !== "ORDERBOOK") return invalid(`market ${marketId} is not an ORDERBOOK market`);
  return m;
}

/** Records a market's status and outcome for rollback, once per command. */
function saveMarket(s: EngineState, m: Market): void {
  if (m.ep === s.u.ep) return;
  m.ep = s.u.ep;
  const { status, winningOutcome } = m;
  s.u.fn(() => {
    m.status = status;
    m.winningOutcome = winningOutcome;
  });
}

/** resolveMarket (winning outcome) or voidMarket (null): cancels resting orders, burns every share, pays out. */
export function settle(s: EngineState, marketId: unknown, winning: unknown, at: number): SettleResult {
  const m = openMarket(s, marketId);
  if (winning !== null && !isOutcomeIndex(winning, m.outcomes)) return invalid(`winningOutcome must be an integer 0..${m.outcomes - 1}`);
  // Order-book shares were minted by the supply (MINT), so it pays them; LMSR shares are paid by the pool.
  const source = m.lmsr ? "POOL" : "SUPPLY";
  for (const o of [...m.book.orders()]) cancelResting(s, o, "cancelled", "market_closed", at);
  saveMarket(s, m);
  m.status = winning === null ? "voided" : "resolved";
  if (winning !== null) m.winningOutcome = winning;
  let paid = 0n;
  let fees = 0n;
  for (const a of [...s.accts.values()]) {
    if (a.addr === SUPPLY_ACCOUNT) continue;
    for (let i = 0; i < m.outcomes; i++) {
      const side = i as OutcomeIndex;
      const shares = a.bals.get(m.assets[side]!)?.v ?? 0n;
      if (shares <= 0n) continue;
      if (winning === null) {
        // Void: every share is refunded floor(shares / n), so a full set returns at most one unit of collateral
        // (the remainder stays with the market, as LmsrMarket.redeem rounds).
        const refund = voidPayout(shares, m.outcomes);
        s.emit({ type: "VOID_REFUND", marketId: m.id, account: a.addr, side, shares, refund, source });
        paid += refund;
      } else {
        const gross = side === winning ? shares : 0n;
        const fee = exitFee(gross, m.winningsExitFeeBps);
        s.emit({ type: "RESOLUTION_PAYOUT", marketId: m.id, account: a.addr, side, shares, payout: gross - fee, source });
        if (fee > 0n) {
          if (m.lmsr) s.emit({ type: "FEE_SWEEP", marketId: m.id, amount: fee });
          else s.emit({ type: "CREDIT", account: s.config.treasury, assetId: COLLATERAL_ASSET, amount: fee, reason: CreditReason.FEE_SWEEP });
        }
        paid += gross - fee;
        fees += fee;
      }
    }
  }
  let residual = 0n;
  if (m.lmsr) {
    // What is left in the pool after every payout goes back to the funder.
    residual = s.accts.get(m.lmsr.pool)?.bals.get(COLLATERAL_ASSET)?.v ?? 0n;
    if (residual > 0n) s.emit({ type: "POOL_WITHDRAW", marketId: m.id, account: m.lmsr.funder, amount: residual });
  }
  return { market: marketView(m), paid, fees, residual };
}
