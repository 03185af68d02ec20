/** The order-book loop of the committed lane (docs/trading.md). */
import type { AnyOperation } from "../../registry/types";
import { cancelAllOrders } from "./cancel-all";
import { cancelOrder } from "./cancel-order";
import { confirmOrderCancel } from "./confirm-cancel";
import { getBalances } from "./get-balances";
import { listOrderEvents } from "./list-events";
import { listOpenOrders } from "./list-open-orders";
import { placeLimitOrder, placeOrder } from "./place-order";
import { replaceQuotes } from "./replace-quotes";
import { replaceQuotesBatch } from "./replace-quotes-batch";

export const ORDERBOOK_OPERATIONS: AnyOperation[] = [
  placeOrder,
  placeLimitOrder,
  cancelOrder,
  confirmOrderCancel,
  cancelAllOrders,
  replaceQuotes,
  replaceQuotesBatch,
  listOrderEvents,
  listOpenOrders,
  getBalances,
];
