/**
 * A market in the engine: creation (with the LMSR pool's seed, and a lifecycle when it has a creator), the guards
 * every trade passes (exists, open and before closeTime, the right pricing), and the operator's settlement of a market
 * without a lifecycle. The lifecycle commands are ./lifecycle-commands.ts; holder payouts ./payouts.ts.
 */
import { MAX_MARKET_ID, MAX_OUTCOMES, isOutcomeIndex, outcomeAssetId, poolAccountOf, type OutcomeIndex } from "../../decoder";
import { Book } from "./book";
import { MAX_FEE_BPS } from "./fees";
import { startLifecycle } from "./lifecycle-start";
import type { Market } from "./model";
import { NO_CLOSE, saveMarket } from "./market-status";
import { payHolders, poolResidual } from "./payouts";
import { bFromSeed } from "../pricing/lmsr";
import { invalid, reject } from "./rejection";
import type { EngineState } from "./state";
import type { CreateMarketCommand, MarketView, SettleResult } from "./types";
import { addressOf, isInt } from "./validation";
import { marketView } from "./views";

export function createMarket(s: EngineState, c: CreateMarketCommand, at: number): MarketView {
  if (typeof c.marketId !== "bigint" || c.marketId < 1n || c.marketId > MAX_MARKET_ID) return invalid("marketId must be a bigint 1..2^64-1");
  if (s.markets.has(c.marketId) || s.lifecycles.has(c.marketId)) return reject("MARKET_EXISTS", `market ${c.marketId} exists`, {});
  if (c.pricing !== "ORDERBOOK" && c.pricing !== "LMSR") return invalid("pricing must be ORDERBOOK or LMSR");
  const lane = c.lane ?? "committed";
  if (lane !== "committed" && lane !== "onchain") return invalid("lane must be committed or onchain", { field: "lane" });
  // The book is binary (MINT/MERGE pair an outcome with its complement); the LMSR pool prices 2 or 3 outcomes, as the
  // on-chain LmsrMarket does. The committed ledger is binary (asset sides 0 and 1): ternary markets are on-chain only.
  if (c.pricing === "ORDERBOOK" && c.outcomes !== 2)
    return invalid("ORDERBOOK markets are binary (outcomes = 2); use LMSR for 3 outcomes", { field: "outcomes" });
  if (c.pricing === "LMSR" && c.outcomes !== 2 && c.outcomes !== 3)
    return invalid(`LMSR markets have 2 or 3 outcomes (max ${MAX_OUTCOMES})`, { field: "outcomes" });
  if (lane === "committed" && c.outcomes !== 2)
    return invalid("the committed ledger is binary: a ternary market trades on the onchain lane", { field: "outcomes" });
  if (lane === "onchain" && c.creator === undefined)
    return invalid("an onchain market needs its creator (the ledger holds only its lifecycle)", { field: "creator" });
  if (c.creator === undefined && (c.openTime !== undefined || c.closeTime !== undefined))
    return invalid("openTime and closeTime come with a creator", { field: "creator" });
  const n = c.outcomes;
  if (c.pricing === "LMSR" && (typeof c.seed !== "bigint" || c.seed <= 0n || c.seed > 10n ** 30n)) return invalid("LMSR markets need a positive bigint seed");
  if (c.pricing === "ORDERBOOK" && (c.seed !== undefined || c.funder !== undefined)) return invalid("seed and funder are for LMSR markets");
  if (c.feeModel !== "notional-v1" && c.feeModel !== "shares-v2") return invalid("feeModel must be notional-v1 or shares-v2");
  for (const f of ["takerFeeBps", "sellExitFeeBps", "winningsExitFeeBps"] as const) {
    // The on-chain factory's cap (LmsrFactory.MAX_FEE_BPS): both lanes stamp fees in the same range.
    if (!isInt(c[f], 0, MAX_FEE_BPS)) return invalid(`${f} must be an integer 0..${MAX_FEE_BPS}`, { field: f });
  }
  const creator = c.creator === undefined ? undefined : addressOf(c.creator, "creator");
  if (lane === "onchain") {
    // The seed is paid into the contract on chain: a funder, if named, must be the creator.
    if (c.funder !== undefined && addressOf(c.funder, "funder") !== creator)
      return invalid("an onchain market's seed is funded on chain by its creator", { field: "funder" });
    return startLifecycle(s, c, creator!, undefined, at).view;
  }
  const id = c.marketId;
  let lmsr: Market["lmsr"];
  if (c.pricing === "LMSR") {
    const funder = c.funder === undefined && creator ? creator : addressOf(c.funder, "funder");
    if (creator && funder !== creator) return invalid("the creator funds its market's seed (funder = creator)", { field: "funder" });
    lmsr = { b: bFromSeed(c.seed!, n), q: new Array<bigint>(n).fill(0n), funder, pool: poolAccountOf(id), seed: c.seed! };
  }
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
    closeAt: NO_CLOSE,
    ep: 0,
  };
  s.markets.set(id, m);
  s.u.fn(() => s.markets.delete(id));
  if (lmsr) s.emit({ type: "MARKET_SEED", marketId: id, funder: lmsr.funder, amount: lmsr.seed });
  if (creator) return startLifecycle(s, c, creator, m, at).view;
  return marketView(m);
}

/** The market, which must exist and be open at `at` (before its closeTime: the one lifecycle field trading reads). */
export function openMarket(s: EngineState, marketId: unknown, at: number): Market {
  if (typeof marketId !== "bigint") return invalid("marketId must be a bigint");
  const m = s.markets.get(marketId);
  if (!m) return reject("MARKET_NOT_FOUND", `market ${marketId} not found`, {});
  if (m.status !== "open" || at >= m.closeAt) return reject("MARKET_CLOSED", `market ${marketId} is ${m.status === "open" ? "closed" : m.status}`, {});
  return m;
}

/** An open ORDERBOOK market (orders are refused on LMSR markets). */
export function tradableMarket(s: EngineState, marketId: unknown, at: number): Market {
  const m = openMarket(s, marketId, at);
  if (m.pricing !== "ORDERBOOK") return invalid(`market ${marketId} is not an ORDERBOOK market`);
  return m;
}

/**
 * resolveMarket (winning outcome) or voidMarket (null) of a market without a lifecycle: cancels resting orders, burns
 * every share, pays out, and hands the pool's residual back to the funder. A market with a lifecycle becomes final
 * only through the protocol (./lifecycle-commands.ts).
 */
export function settle(s: EngineState, marketId: unknown, winning: unknown, at: number): SettleResult {
  const m = openMarket(s, marketId, at);
  if (m.lcm) return invalid(`market ${marketId} has a lifecycle: it resolves through the protocol (cancelMarket voids it before a proposal)`);
  if (winning !== null && !isOutcomeIndex(winning, m.outcomes)) return invalid(`winningOutcome must be an integer 0..${m.outcomes - 1}`);
  saveMarket(s, m);
  m.status = winning === null ? "voided" : "resolved";
  if (winning !== null) m.winningOutcome = winning;
  const { paid, fees } = payHolders(s, m, winning, at);
  // What is left in the pool after every payout goes back to the funder.
  const residual = poolResidual(s, m);
  if (residual > 0n) s.emit({ type: "POOL_WITHDRAW", marketId: m.id, account: m.lmsr!.funder, amount: residual });
  return { market: marketView(m), paid, fees, residual };
}
