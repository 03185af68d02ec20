/**
 * Reads the projection through the indexer's own routes (indexer/src/api). Used with the embedded PGlite: Ponder
 * holds its PGlite directory exclusively, so its HTTP server is the only way in from the API process.
 */
import type { HolderRow, IntentExecutionRow, LedgerBatchRow, MarketFilter, MarketRow, ProjectionReader, TradeQuery, TradeRow } from "./rows";

export class PonderHttpReader implements ProjectionReader {
  readonly kind = "ponder-http" as const;
  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = 5_000,
  ) {}

  private async get<T>(path: string, params: Record<string, string | number | undefined> = {}): Promise<T> {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, String(v));
    const res = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs) });
    if (!res.ok) throw new Error(`indexer ${url.pathname} answered ${res.status}`);
    return (await res.json()) as T;
  }

  async markets(f: MarketFilter): Promise<MarketRow[]> {
    return (await this.get<{ markets: MarketRow[] }>("/onchain/markets", { state: f.state, creator: f.creator, limit: f.limit, offset: f.offset })).markets;
  }
  async market(address: string): Promise<MarketRow | null> {
    return (await this.get<{ market: MarketRow | null }>(`/onchain/markets/${address.toLowerCase()}`)).market;
  }
  async trades(address: string, q: TradeQuery): Promise<TradeRow[]> {
    return (await this.get<{ trades: TradeRow[] }>(`/onchain/markets/${address.toLowerCase()}/trades`, { limit: q.limit, before: q.before, since: q.since }))
      .trades;
  }
  async holders(address: string): Promise<HolderRow[]> {
    return (await this.get<{ holders: HolderRow[] }>(`/onchain/markets/${address.toLowerCase()}/holders`)).holders;
  }
  async intentExecutions(digest: string): Promise<IntentExecutionRow[]> {
    return (await this.get<{ executions: IntentExecutionRow[] }>(`/onchain/intents/${digest.toLowerCase()}`)).executions;
  }
  async ledgerBatches(limit: number): Promise<LedgerBatchRow[]> {
    return (await this.get<{ batches: LedgerBatchRow[] }>("/ledger/batches", { limit })).batches;
  }
}
