/**
 * POST /trade/quote and /trade/prepare on committed-lane (PM) markets. Quote changes nothing; prepare executes at once
 * and atomically within the slippage bound (spec: "On the committed lane prepare executes atomically within the
 * slippage bound"):
 *   - automated (LMSR): an lmsrTrade with limit = quoted cost + slippage (buy) or proceeds - slippage (sell);
 *   - ORDERBOOK: an IOC order whose limit price is the worst level the quote walks, moved by the slippage; what the
 *     book cannot fill within it is cancelled, never left resting.
 * Quote and prepare are separate calls, so prepare re-prices against the state it finds. To hold the prepare to what
 * the agent was quoted, it may echo the quote's bound (`PrepareBounds`): then a pool or book that moved beyond it is
 * refused with CONFLICT `reason: SLIPPAGE` and nothing changes.
 * Amounts are decimal strings; prices are basis points (strings) as everywhere at the edge.
 */
import type { Address } from "viem";
import type { Exchange } from "../../../relayer/exchange/exchange";
import { ceilDiv, takerFee, type FeePolicyVersion } from "../../../relayer/pricing/fees";
import { outcomeAssetId, type OutcomeIndex } from "../../../decoder";
import { ApiError } from "../../platform/errors/api-error";
import { accepted } from "../../platform/errors/engine-rejection";
import type { KeyPrincipal } from "../auth/principal";
import type { CommittedTradeLane, LaneAnswer, TradeRequest } from "../trading/lanes";
import type { VenueMarket } from "./types";

const BPS = 10_000n;
const WAD = 10n ** 18n;

/** The quote's bound echoed by the agent (docs/venue.md): one of them, matching the market's model and the side. */
export interface PrepareBounds {
  /** ORDERBOOK: the IOC limit, the quote's `limitPriceBps` (outcome's own price, 1..9999). */
  limitPriceBps?: number;
  /** automated buy: the most PM the trade may cost, the quote's `maxCost`. */
  maxCost?: bigint;
  /** automated sell: the least PM the trade must return, the quote's `minProceeds`. */
  minProceeds?: bigint;
}
export type PrepareRequest = TradeRequest & PrepareBounds;

interface LaneDeps {
  exchange: Exchange;
  marketAt(address: string): Promise<VenueMarket>;
  accountOf(principal: KeyPrincipal): Promise<Address>;
}

export function committedLane(deps: LaneDeps): CommittedTradeLane {
  return {
    async owns(address) {
      try {
        await deps.marketAt(address);
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.code === "MARKET_NOT_FOUND") return false;
        throw err;
      }
    },
    async quote(req) {
      const vm = await tradable(deps, req);
      return vm.market.pricingModel === "automated" ? lmsrQuote(deps.exchange, vm, req) : bookQuote(deps.exchange, vm, req);
    },
    async prepare(req: PrepareRequest, principal) {
      const vm = await tradable(deps, req);
      checkBounds(vm, req);
      const account = await deps.accountOf(principal);
      if (req.side === "sell") {
        // A clear refusal before pricing: selling more than the agent holds (available, i.e. not locked by orders).
        const held = deps.exchange.engine.balance(account, outcomeAssetId(vm.marketId, req.outcome as OutcomeIndex)).available;
        if (held < req.shares) throw new ApiError("INSUFFICIENT_BALANCE", `selling ${req.shares} shares of outcome ${req.outcome} but ${held} are available`, { available: held.toString() });
      }
      if (vm.market.pricingModel === "automated") {
        const q = lmsrQuote(deps.exchange, vm, req);
        // The engine refuses (CONFLICT SLIPPAGE) a trade whose cost or proceeds cross `limit`.
        const limit = (req.side === "buy" ? req.maxCost : req.minProceeds) ?? BigInt(req.side === "buy" ? (q.maxCost as string) : (q.minProceeds as string));
        const applied = accepted(await deps.exchange.submit({ type: "lmsrTrade", account, marketId: vm.marketId, outcome: req.outcome as OutcomeIndex, direction: req.side === "buy" ? "BUY" : "SELL", shares: req.shares, limit }));
        const r = applied.result as { tradeId: string; shares: bigint; collateral: bigint; fee: bigint; priceAfterWad: bigint };
        return {
          pricingModel: "automated",
          executed: true,
          tradeId: r.tradeId,
          outcome: req.outcome,
          side: req.side,
          shares: r.shares.toString(),
          [req.side === "buy" ? "cost" : "proceeds"]: r.collateral.toString(),
          fee: r.fee.toString(),
          limit: limit.toString(),
          probabilityAfter: wadToNumber(r.priceAfterWad),
        };
      }
      const walked = walkBook(deps.exchange, vm, req);
      if (walked.limit === null) throw new ApiError("CONFLICT", "the book has no liquidity on that side", { reason: "NO_LIQUIDITY" });
      const limitPriceBps = req.limitPriceBps ?? walked.limit;
      // Refused before the engine sees it: an IOC with no fill would still be an accepted (and reported) order.
      if (req.limitPriceBps !== undefined && walkBook(deps.exchange, vm, req, limitPriceBps).filled === 0n) {
        throw new ApiError("CONFLICT", `the book moved: its best price ${walked.best} is beyond the limit ${limitPriceBps}`, { reason: "SLIPPAGE", bestPriceBps: String(walked.best), limitPriceBps: String(limitPriceBps) });
      }
      const applied = accepted(await deps.exchange.submit({ type: "placeOrder", account, marketId: vm.marketId, outcome: req.outcome as 0 | 1, action: req.side, priceBps: limitPriceBps, size: req.shares, tif: "IOC" }));
      const order = applied.result as { orderId: string; status: string; filledSize: bigint };
      const fills = applied.reports.filter((r) => r.kind === "fill" && r.orderId === order.orderId && r.account === account);
      return {
        pricingModel: "ORDERBOOK",
        executed: order.filledSize > 0n,
        orderId: order.orderId,
        status: order.status,
        outcome: req.outcome,
        side: req.side,
        limitPriceBps: String(limitPriceBps),
        filledSize: order.filledSize.toString(),
        // An IOC's remainder is cancelled, and a cancelled order reports remainingSize 0: what was not filled.
        cancelledSize: (req.shares - order.filledSize).toString(),
        fills: fills.map((f) => ({ tradeId: f.tradeId, priceBps: String(f.fillPriceBps), size: f.fillSize?.toString(), fee: f.fee?.toString(), liquidity: f.liquidity, matchKind: f.matchKind })),
      };
    },
  };
}

async function tradable(deps: LaneDeps, req: TradeRequest): Promise<VenueMarket> {
  const vm = await deps.marketAt(req.market);
  if (req.outcome >= vm.market.outcomes.length) throw new ApiError("INVALID_PAYLOAD", `outcome ${req.outcome} is not an outcome of this market (0..${vm.market.outcomes.length - 1})`, { field: "outcome" });
  if (vm.market.state !== "open") throw new ApiError("MARKET_CLOSED", `market ${vm.market.address} is ${vm.market.state}`);
  return vm;
}

function lmsrQuote(exchange: Exchange, vm: VenueMarket, req: TradeRequest): LaneAnswer {
  const q = exchange.engine.lmsrQuote(vm.marketId, req.outcome as OutcomeIndex, req.side === "buy" ? "BUY" : "SELL", req.shares);
  if (!q) throw new ApiError("CONFLICT", "the pool cannot take a sale of more shares than are outstanding", { reason: "INSUFFICIENT_OUTSTANDING" });
  const slip = BigInt(req.slippageBps);
  const common = { pricingModel: "automated", outcome: req.outcome, side: req.side, shares: q.shares.toString(), fee: q.fee.toString(), slippageBps: req.slippageBps, averageProbability: Number((q.collateral * 1_000_000n) / q.shares) / 1e6, probabilityAfter: wadToNumber(q.priceAfterWad) };
  if (req.side === "buy") return { ...common, cost: q.collateral.toString(), maxCost: ceilDiv(q.collateral * (BPS + slip), BPS).toString() };
  return { ...common, proceeds: q.collateral.toString(), minProceeds: ((q.collateral * (BPS - slip)) / BPS).toString() };
}

/**
 * Walks the live book for `req.shares` of the outcome. The book is kept in YES terms, so a NO buy walks the YES bids
 * (at 10000 - p: it mints against YES buyers) and a NO sell walks the YES asks (it merges against YES sellers).
 */
function bookQuote(exchange: Exchange, vm: VenueMarket, req: TradeRequest): LaneAnswer {
  const { filled, notional, worst, limit } = walkBook(exchange, vm, req);
  const fee = filled > 0n ? takerFee(vm.market.feePolicyVersion as FeePolicyVersion, vm.market.takerFeeBps, Number((notional * BPS) / filled) || 1, filled) : 0n;
  return {
    pricingModel: "ORDERBOOK",
    outcome: req.outcome,
    side: req.side,
    shares: req.shares.toString(),
    fillableShares: filled.toString(),
    notional: notional.toString(),
    fee: fee.toString(),
    averagePriceBps: filled > 0n ? String(Number((notional * BPS) / filled)) : null,
    worstPriceBps: worst === null ? null : String(worst),
    slippageBps: req.slippageBps,
    limitPriceBps: limit === null ? null : String(limit),
  };
}

/** A bound that does not fit the market's model or the side is a field error, not silently ignored. */
function checkBounds(vm: VenueMarket, req: PrepareRequest): void {
  const book = vm.market.pricingModel !== "automated";
  const misplaced =
    (req.limitPriceBps !== undefined && !book && "limitPriceBps") ||
    (req.maxCost !== undefined && (book || req.side !== "buy") && "maxCost") ||
    (req.minProceeds !== undefined && (book || req.side !== "sell") && "minProceeds");
  if (misplaced) {
    const fits = book ? "limitPriceBps" : req.side === "buy" ? "maxCost" : "minProceeds";
    throw new ApiError("INVALID_PAYLOAD", `\`${misplaced}\` does not apply to a ${req.side} on this ${vm.market.pricingModel} market; its bound is \`${fits}\``, { field: misplaced });
  }
}

/** `bound`: walk only the levels at or better than this price of the outcome (what an IOC at `bound` can take). */
function walkBook(exchange: Exchange, vm: VenueMarket, req: TradeRequest, bound?: number) {
  const book = exchange.engine.book(vm.marketId, 1_000) ?? { bids: [], asks: [] };
  const yes = req.outcome === 0;
  const levels = (req.side === "buy") === yes ? book.asks : book.bids;
  let left = req.shares;
  let notional = 0n;
  let worst: number | null = null;
  const best = levels.length > 0 ? (yes ? levels[0].priceBps : 10_000 - levels[0].priceBps) : null;
  for (const l of levels) {
    if (left === 0n) break;
    const price = yes ? l.priceBps : 10_000 - l.priceBps;
    if (bound !== undefined && (req.side === "buy" ? price > bound : price < bound)) break;
    const take = l.size < left ? l.size : left;
    notional += (take * BigInt(price)) / BPS;
    left -= take;
    worst = price;
  }
  const filled = req.shares - left;
  const s = req.slippageBps;
  const limit = worst === null ? null : req.side === "buy" ? Math.min(9_999, Math.ceil((worst * (10_000 + s)) / 10_000)) : Math.max(1, Math.floor((worst * (10_000 - s)) / 10_000));
  return { filled, notional, worst, limit, best };
}

const wadToNumber = (w: bigint) => Number((w * 1_000_000n) / WAD) / 1e6;
