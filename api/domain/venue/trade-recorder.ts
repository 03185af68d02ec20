/**
 * Keeps the catalog's trade list, last prices, volume and chart frames in step with the engine: one catalog trade per
 * committed order-book fill (taken from the taker's fill report, so a trade is counted once) and per LMSR trade.
 * Recording runs after the journal commit, in commit order, off the request path; a failure is logged and never
 * touches the books (the journal is the truth, the catalog a view of it).
 */
import type { Logger } from "pino";
import type { Database } from "../../../relayer/db/client";
import type { ExecutionReport } from "../../../relayer/engine/types";
import type { Exchange } from "../../../relayer/exchange/exchange";
import { poolAccountOf } from "../../../decoder";
import { recordTrade, type TradeInput } from "../markets/trade-store";

export class TradeRecorder {
  #tail: Promise<void> = Promise.resolve();
  readonly #off: () => void;

  constructor(
    private readonly db: Database,
    exchange: Exchange,
    private readonly log: Logger,
  ) {
    this.#off = exchange.onReports((reports) => {
      for (const r of reports as ExecutionReport[]) {
        if (r.kind !== "fill" || r.liquidity !== "taker" || r.fillPriceBps === undefined || r.fillSize === undefined) continue;
        this.record(BigInt(r.marketId), { outcome: r.outcome, priceBps: r.fillPriceBps, size: r.fillSize, takerSide: r.action, at: r.at });
      }
    });
  }

  /** Queues one trade of engine market `marketId`. */
  record(marketId: bigint, trade: TradeInput): void {
    const address = poolAccountOf(marketId).toLowerCase();
    this.#tail = this.#tail
      .then(() => recordTrade(this.db, address, trade))
      .then(
        () => undefined,
        (err: unknown) => this.log.error({ err, marketId: marketId.toString() }, "recording a trade in the catalog failed"),
      );
  }

  /** Resolves when every queued trade is recorded (tests, shutdown). */
  drained(): Promise<void> {
    return this.#tail;
  }

  async close(): Promise<void> {
    this.#off();
    await this.#tail;
  }
}
