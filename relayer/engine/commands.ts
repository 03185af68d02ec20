/**
 * The command dispatch table: one handler per command type, typed by its command and its result. A new command is
 * its type in ./types.ts (the Command union and CommandResults), its rule in the module of its concept, and one entry
 * here; the compiler refuses a table that misses a type.
 */
import { openAccount, credit, addFillCredits } from "./accounts";
import { advanceLifecycle } from "./lifecycle-clock";
import { cancelMarket, castBallot, challenge, collectCreatorFunds, councilAct, declareMia, proposeOutcome, setCouncil } from "./lifecycle-commands";
import { lmsrTrade } from "./lmsr-trade";
import { createMarket, settle, tradableMarket } from "./markets";
import { cancelAll, cancelOrder, place, placeBatch, replaceQuotes } from "./orders";
import { invalid } from "./rejection";
import type { EngineState } from "./state";
import type { Command, CommandResults, CommandType } from "./types";
import { addressOf, checkBatch, specError } from "./validation";
import { orderView } from "./views";

// Hot path: imported functions are called through these locals (transpiled CommonJS imports are getter chains).
const account = addressOf;
const bookMarket = tradableMarket;
const specProblem = specError;
const placeOne = place;
const viewOf = orderView;
const cancelOne = cancelOrder;

/** Applies a command of type T to the state at `at` (refusals throw a Refusal; Engine.apply rolls back). */
export type Handler<T extends CommandType> = (s: EngineState, c: Extract<Command, { type: T }>, at: number) => CommandResults[T];

const HANDLERS: { readonly [T in CommandType]: Handler<T> } = {
  openAccount,
  credit,
  addFillCredits,
  createMarket,
  placeOrder(s, c, at) {
    // The command itself is the order spec (PlaceOrderCommand extends OrderSpec): no copy on the hot path.
    const acct = s.acctFor(account(c.account, "account"), at);
    const mkt = bookMarket(s, c.marketId, at);
    const error = specProblem(c, at);
    if (error !== undefined) invalid(error);
    return viewOf(placeOne(s, acct, mkt, c, at));
  },
  placeOrders(s, c, at) {
    const acct = s.acctFor(addressOf(c.account, "account"), at);
    const mkt = tradableMarket(s, c.marketId, at);
    return placeBatch(s, acct, mkt, checkBatch(c.orders, 1, at), at);
  },
  replaceQuotes(s, c, at) {
    const acct = s.acctFor(addressOf(c.account, "account"), at);
    const mkt = tradableMarket(s, c.marketId, at);
    return replaceQuotes(s, acct, mkt, checkBatch(c.orders, 0, at), at);
  },
  cancelOrder: (s, c, at) => cancelOne(s, c.account, c.orderId, c.clientOrderId, at),
  cancelAll,
  lmsrTrade,
  resolveMarket: (s, c, at) => settle(s, c.marketId, c.winningOutcome, at),
  voidMarket: (s, c, at) => settle(s, c.marketId, null, at),
  // Engine.apply swept the due GTD orders before dispatching: nothing is left to do.
  expireOrders: () => null,
  advanceLifecycle: (s, _c, at) => advanceLifecycle(s, at),
  proposeOutcome,
  challenge,
  declareMia,
  castBallot,
  councilAct,
  setCouncil,
  collectCreatorFunds,
  cancelMarket,
};

/** The table by type (a Map: a type read from JSON such as "constructor" finds nothing). */
const BY_TYPE = new Map<unknown, Handler<CommandType>>(Object.entries(HANDLERS) as [CommandType, Handler<CommandType>][]);

/** Runs the handler of `c.type`; an unknown type (commands also arrive as JSON) is INVALID_PAYLOAD. */
export function dispatch(s: EngineState, c: Command, at: number): CommandResults[CommandType] {
  if (c === null || typeof c !== "object") return invalid("command must be an object");
  const handler = BY_TYPE.get(c.type);
  if (handler === undefined) return invalid(`unknown command type ${String((c as { type?: unknown }).type)}`);
  return handler(s, c as never, at);
}
