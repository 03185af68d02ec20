/**
 * Every operation of the API, in one list. Adding an operation: write its file under api/operations/<area>/ and add
 * one line here.
 */
import type { AnyOperation } from "../registry/types";
import { getServerTime } from "./system/get-server-time";
import { DISCOVERY_OPERATIONS } from "./discover";
import { IDENTITY_OPERATIONS } from "./identity";
import { META_OPERATIONS } from "./meta";
import { EVENTS_OPERATIONS } from "./events";
import { WEBHOOK_OPERATIONS } from "./webhooks";
import { TRADE_OPERATIONS } from "./trade";
import { ORDERBOOK_OPERATIONS } from "./orderbook";
import { HEALTH_OPERATIONS } from "./health";
import { listLedgerBatches } from "./ledger/list-batches";
import { CONTENT_OPERATIONS } from "./content";
import { PM_OPERATIONS } from "./pm";
import { CLAIM_OPERATIONS } from "./claims";
import { RESOLVE_OPERATIONS } from "./resolve";
import { NEGOTIATE_OPERATIONS } from "./negotiate";

export const OPERATIONS: AnyOperation[] = [
  getServerTime,
  ...DISCOVERY_OPERATIONS,
  ...IDENTITY_OPERATIONS,
  ...META_OPERATIONS,
  ...EVENTS_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...TRADE_OPERATIONS,
  ...ORDERBOOK_OPERATIONS,
  ...HEALTH_OPERATIONS,
  listLedgerBatches,
  ...CONTENT_OPERATIONS,
  ...PM_OPERATIONS,
  ...CLAIM_OPERATIONS,
  ...RESOLVE_OPERATIONS,
  ...NEGOTIATE_OPERATIONS,
];
