import type { AnyOperation } from "../../registry/types";
import { getTradeIntent } from "./get-trade-intent";
import { prepareTrade } from "./prepare-trade";
import { quoteTrade } from "./quote-trade";
import { submitTrade } from "./submit-trade";

export const TRADE_OPERATIONS: AnyOperation[] = [quoteTrade, prepareTrade, getTradeIntent, submitTrade];
