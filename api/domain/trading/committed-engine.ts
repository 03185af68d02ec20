/**
 * The committed lane's calls into the exchange engine, in one place: the two commands prepare submits in the call's
 * commit unit (an LMSR trade, an IOC order) with their results read into typed values, and the order book as a taker meets it (the resting
 * orders of each level, which the engine fills and charges one by one).
 */
import type { Exchange } from "../../../relayer/exchange/exchange";
import type { CommitUnit } from "../../../relayer/db/group-commit";
import { takerFee, type Engine, type FeeModel, type LmsrTradeCommand, type LmsrTradeResult, type PlaceOrderCommand } from "../../../relayer/engine";
import { acceptedFills } from "../venue/allowance-problem";
import type { Fill } from "./trade-answers";
import type { TakerLevel } from "./book-walk";

/**
 * Submits an LMSR trade and answers the engine's result (`collateral` is the cost of a buy or the net proceeds of a
 * sell); a refusal (SLIPPAGE past `limit`, balance, allowance) is thrown as its problem (the allowance's 402 as on
 * /orderbook/*: ../venue/allowance-problem.ts).
 */
export async function tradeLmsr(exchange: Exchange, command: Omit<LmsrTradeCommand, "type">, unit: CommitUnit | null): Promise<LmsrTradeResult> {
  return acceptedFills(await exchange.submit({ type: "lmsrTrade", ...command } satisfies LmsrTradeCommand, { unit })).result;
}

/** An IOC order once it has matched: filled, or cancelled with what it could not fill (it never rests). */
export interface IocExecution {
  orderId: string;
  status: "filled" | "cancelled";
  filledSize: bigint;
  /** The taker's own fills, in match order. */
  fills: Fill[];
}

/** Places an IOC order for `account` and reads its fills from the command's execution reports. */
export async function placeIoc(exchange: Exchange, command: Omit<PlaceOrderCommand, "type" | "tif">, unit: CommitUnit | null): Promise<IocExecution> {
  const applied = acceptedFills(await exchange.submit({ type: "placeOrder", ...command, tif: "IOC" } satisfies PlaceOrderCommand, { unit }));
  const order = applied.result;
  if (order.status !== "filled" && order.status !== "cancelled") throw new Error(`IOC order ${order.orderId} ended ${order.status}`);
  const fills: Fill[] = [];
  for (const r of applied.reports) {
    if (r.kind !== "fill" || r.orderId !== order.orderId || r.account !== command.account) continue;
    if (
      r.tradeId === undefined ||
      r.fillPriceBps === undefined ||
      r.fillSize === undefined ||
      r.fee === undefined ||
      r.liquidity !== "taker" ||
      r.matchKind === undefined
    ) {
      throw new Error(`fill report of IOC order ${order.orderId} lacks its fill fields`);
    }
    fills.push({
      tradeId: r.tradeId,
      priceBps: String(r.fillPriceBps),
      size: r.fillSize.toString(),
      fee: r.fee.toString(),
      liquidity: r.liquidity,
      matchKind: r.matchKind,
    });
  }
  return { orderId: order.orderId, status: order.status, filledSize: order.filledSize, fills };
}

/** The most price levels a walk reads. */
const MAX_LEVELS = 1_000;

/**
 * The side of the book a taker of `outcome` and `side` walks, best first, in the outcome's own prices, reaching at
 * least `shares` where the book holds them. The book is kept in YES terms: a YES buy walks the asks and a YES sell
 * the bids; a NO buy walks the bids at 10000 - p (it mints against YES buyers) and a NO sell the asks at 10000 - p
 * (it merges against YES sellers).
 */
export function takerLevels(engine: Engine, marketId: bigint, outcome: number, side: "buy" | "sell", shares: bigint): TakerLevel[] {
  const book = engine.book(marketId, MAX_LEVELS) ?? { bids: [], asks: [] };
  const yes = outcome === 0;
  const walksAsks = (side === "buy") === yes;
  const bookSide = walksAsks ? "asks" : "bids";
  const levels: TakerLevel[] = [];
  let left = shares;
  for (const l of book[bookSide]) {
    if (left <= 0n) break;
    // A level of one order is one fill; a level of several is as many fills, read from the engine in time priority.
    const sizes = l.orders > 1 ? (engine.levelSizes(marketId, bookSide, l.priceBps) ?? [l.size]) : [l.size];
    levels.push({ priceBps: yes ? l.priceBps : 10_000 - l.priceBps, sizes });
    left -= l.size;
  }
  return levels;
}

/** The taker fee the engine charges one fill of `size` at the taker's own price `priceBps` on this market. */
export function takerFeeOf(engine: Engine, marketId: bigint): (priceBps: number, size: bigint) => bigint {
  const m = engine.market(marketId);
  if (!m) throw new Error(`market ${marketId} is not in the engine`);
  const model: FeeModel = m.feeModel;
  return (priceBps, size) => takerFee(model, priceBps, size, m.takerFeeBps);
}
