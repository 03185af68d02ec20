/**
 * The committed lane: POST /trade/quote and /trade/prepare on PM markets of the exchange engine. Quote changes
 * nothing; prepare executes at once and atomically within the slippage bound (spec: "On the committed lane prepare
 * executes atomically within the slippage bound"):
 *   - automated (LMSR): an lmsrTrade with limit = quoted cost + slippage (buy) or proceeds - slippage (sell);
 *   - ORDERBOOK: an IOC order whose limit price is the worst level the quote walks, moved by the slippage; what the
 *     book cannot fill within it is cancelled, never left resting.
 * Quote and prepare are separate calls, so prepare re-prices against the state it finds. To hold the prepare to what
 * the agent was quoted, it may echo the quote's bound (`PrepareBounds`): then a pool or book that moved beyond it is
 * refused with CONFLICT `reason: SLIPPAGE` and nothing changes. docs/venue.md, docs/trading.md.
 */
import type { Address } from "viem";
import type { Clock } from "../../../relayer/clock";
import type { CommitUnit } from "../../../relayer/db/group-commit";
import { ceilDiv } from "../../../relayer/pricing/fees";
import { outcomeAssetId, type OutcomeIndex } from "../../../decoder";
import { ApiError } from "../../platform/errors/api-error";
import type { Venue, VenueMarket } from "../venue/types";
import type { PrepareRequest, TradeRequest } from "./trade-request";
import type { AutomatedExecution, AutomatedQuote, BookExecution, BookQuote } from "./trade-answers";
import type { TradeLane } from "./trade-lane";
import { walkBook, type BookWalk } from "./book-walk";
import { placeIoc, takerFeeOf, takerLevels, tradeLmsr } from "./committed-engine";

const BPS = 10_000n;
const WAD = 10n ** 18n;

export type CommittedLaneDeps = Pick<Venue, "exchange" | "marketAt" | "accountOf">;

/** The fill allowance `account` has left now (the engine counts it). */
const remainingOf = (deps: CommittedLaneDeps, account: Address, now: number) => deps.exchange.engine.allowance(account, now).remaining;

/** The committed lane of the venue's markets: `at(vm)` is the lane of one market. */
export function committedLane(deps: CommittedLaneDeps, clock: Clock) {
  return {
    /** The venue's market at `address`, or null when the engine does not trade it. */
    async marketOrNull(address: string): Promise<VenueMarket | null> {
      try {
        return await deps.marketAt(address);
      } catch (err) {
        if (err instanceof ApiError && err.code === "MARKET_NOT_FOUND") return null;
        throw err;
      }
    },

    at(vm: VenueMarket): TradeLane {
      return {
        lane: "committed",
        async quote(req) {
          tradable(vm, req);
          return vm.market.pricingModel === "automated" ? lmsrQuote(deps, vm, req) : bookQuote(deps, vm, req);
        },
        async prepare(req, principal, unit) {
          tradable(vm, req);
          checkBounds(vm, req);
          const account = await deps.accountOf(principal);
          if (req.side === "sell") {
            // A clear refusal before pricing: selling more than the agent holds (available, i.e. not locked by orders).
            const held = deps.exchange.engine.balance(account, outcomeAssetId(vm.marketId, req.outcome as OutcomeIndex)).available;
            if (held < req.shares)
              throw new ApiError("INSUFFICIENT_BALANCE", `selling ${req.shares} shares of outcome ${req.outcome} but ${held} are available`, {
                available: held.toString(),
              });
          }
          const taker: Taker = { account, remaining: () => remainingOf(deps, account, clock.now()), unit };
          return vm.market.pricingModel === "automated" ? lmsrExecute(deps, vm, req, taker) : bookExecute(deps, vm, req, taker);
        },
      };
    },
  };
}

function tradable(vm: VenueMarket, req: TradeRequest): void {
  if (req.outcome >= vm.market.outcomes.length)
    throw new ApiError("INVALID_PAYLOAD", `outcome ${req.outcome} is not an outcome of this market (0..${vm.market.outcomes.length - 1})`, {
      field: "outcome",
    });
  if (vm.market.state !== "open") throw new ApiError("MARKET_CLOSED", `market ${vm.market.address} is ${vm.market.state}`);
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
    throw new ApiError(
      "INVALID_PAYLOAD",
      `\`${misplaced}\` does not apply to a ${req.side} on this ${vm.market.pricingModel} market; its bound is \`${fits}\``,
      { field: misplaced },
    );
  }
}

// ---------------------------------------------------------------- automated (LMSR)

function lmsrQuote(deps: CommittedLaneDeps, vm: VenueMarket, req: TradeRequest): AutomatedQuote {
  const q = deps.exchange.engine.lmsrQuote(vm.marketId, req.outcome as OutcomeIndex, req.side === "buy" ? "BUY" : "SELL", req.shares);
  if (!q) throw new ApiError("CONFLICT", "the pool cannot take a sale of more shares than are outstanding", { reason: "INSUFFICIENT_OUTSTANDING" });
  const slip = BigInt(req.slippageBps);
  const head = { lane: "committed", market: req.market, pricingModel: "automated", outcome: req.outcome } as const;
  const priced = {
    shares: q.shares.toString(),
    fee: q.fee.toString(),
    slippageBps: req.slippageBps,
    averageProbability: Number((q.collateral * 1_000_000n) / q.shares) / 1e6,
    probabilityAfter: wadToNumber(q.priceAfterWad),
  };
  if (req.side === "buy")
    return { ...head, side: "buy", ...priced, cost: q.collateral.toString(), maxCost: ceilDiv(q.collateral * (BPS + slip), BPS).toString() };
  return { ...head, side: "sell", ...priced, proceeds: q.collateral.toString(), minProceeds: ((q.collateral * (BPS - slip)) / BPS).toString() };
}

/** Who executes a prepare: the agent's account, its fill allowance left once done, and the call's commit unit. */
interface Taker {
  account: Address;
  remaining: () => number;
  unit: CommitUnit | null;
}

async function lmsrExecute(deps: CommittedLaneDeps, vm: VenueMarket, req: PrepareRequest, { account, remaining, unit }: Taker): Promise<AutomatedExecution> {
  const q = lmsrQuote(deps, vm, req);
  // The engine refuses (CONFLICT SLIPPAGE) a trade whose cost or proceeds cross `limit`.
  const limit = q.side === "buy" ? (req.maxCost ?? BigInt(q.maxCost)) : (req.minProceeds ?? BigInt(q.minProceeds));
  const r = await tradeLmsr(
    deps.exchange,
    {
      account,
      marketId: vm.marketId,
      outcome: req.outcome as OutcomeIndex,
      direction: req.side === "buy" ? "BUY" : "SELL",
      shares: req.shares,
      limit,
    },
    unit,
  );
  const head = { lane: "committed", market: req.market, pricingModel: "automated", executed: true, tradeId: r.tradeId, outcome: req.outcome } as const;
  const shares = r.shares.toString();
  const after = { fee: r.fee.toString(), limit: limit.toString(), probabilityAfter: wadToNumber(r.priceAfterWad), fillsRemaining: remaining() };
  if (req.side === "buy") return { ...head, side: "buy", shares, cost: r.collateral.toString(), ...after };
  return { ...head, side: "sell", shares, proceeds: r.collateral.toString(), ...after };
}

// ---------------------------------------------------------------- ORDERBOOK

function walk(deps: CommittedLaneDeps, vm: VenueMarket, req: TradeRequest, bound?: number): BookWalk {
  const engine = deps.exchange.engine;
  return walkBook(takerLevels(engine, vm.marketId, req.outcome, req.side, req.shares), req, takerFeeOf(engine, vm.marketId), bound);
}

function bookQuote(deps: CommittedLaneDeps, vm: VenueMarket, req: TradeRequest): BookQuote {
  const { filled, notional, fee, worst, limit } = walk(deps, vm, req);
  return {
    lane: "committed",
    market: req.market,
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

async function bookExecute(deps: CommittedLaneDeps, vm: VenueMarket, req: PrepareRequest, { account, remaining, unit }: Taker): Promise<BookExecution> {
  const walked = walk(deps, vm, req);
  if (walked.limit === null) throw new ApiError("CONFLICT", "the book has no liquidity on that side", { reason: "NO_LIQUIDITY" });
  const limitPriceBps = req.limitPriceBps ?? walked.limit;
  // Refused before the engine sees it: an IOC with no fill would still be an accepted (and reported) order.
  if (req.limitPriceBps !== undefined && walk(deps, vm, req, limitPriceBps).filled === 0n) {
    throw new ApiError("CONFLICT", `the book moved: its best price ${walked.best} is beyond the limit ${limitPriceBps}`, {
      reason: "SLIPPAGE",
      bestPriceBps: String(walked.best),
      limitPriceBps: String(limitPriceBps),
    });
  }
  const order = await placeIoc(
    deps.exchange,
    {
      account,
      marketId: vm.marketId,
      outcome: req.outcome as 0 | 1,
      action: req.side,
      priceBps: limitPriceBps,
      size: req.shares,
    },
    unit,
  );
  return {
    lane: "committed",
    market: req.market,
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
    fills: order.fills,
    fillsRemaining: remaining(),
  };
}

const wadToNumber = (w: bigint) => Number((w * 1_000_000n) / WAD) / 1e6;
