/**
 * Compile-time proof that the exchange plugs in as it is: `connectRealtimeSources(ctx, delivery, { reports: exchange })`.
 * Only types are imported; nothing runs.
 */
import type { Exchange } from "../../../relayer/exchange/exchange";
import type { ReportSource } from "./types";

export type ExchangeIsReportSource = Exchange extends ReportSource ? true : never;
export const exchangeIsReportSource: ExchangeIsReportSource = true;
