/**
 * Projection freshness: how far the indexer's last indexed block trails the chain head. Ponder's `/status` gives the
 * indexed block per chain (number and timestamp); viem's getBlock gives the head. Answers are cached for
 * FRESHNESS_CACHE_MS so discovery responses that embed it do not each cost two round trips. Block numbers are digits
 * strings (the contract's "Projection freshness"), lagSeconds an integer; both null when unknown.
 */
import { createPublicClient, http, type PublicClient } from "viem";
import { z } from "zod";

/** A cursor is healthy when the indexer trails the head by at most this many blocks or seconds. */
export const HEALTHY_LAG_BLOCKS = 2;
export const HEALTHY_LAG_SECONDS = 10;
export const FRESHNESS_CACHE_MS = 500;

const BlockNumber = z.string().regex(/^\d+$/).describe("block number, decimal digits");

export const projectionFreshnessSchema = z.object({
  source: z.literal("indexer"),
  fresh: z.boolean().describe("every cursor is healthy"),
  checkedAt: z.string().describe("ISO time of the check"),
  cursors: z.array(
    z.object({
      chainId: z.number().int(),
      blockNumber: BlockNumber.nullable().describe("last block the indexer projected; null when unknown"),
      headBlockNumber: BlockNumber.nullable().describe("the chain head it was compared with; null when unknown"),
      lagSeconds: z.number().int().nonnegative().nullable().describe("head timestamp minus indexed block timestamp; null when unknown"),
      healthy: z.boolean(),
    }),
  ),
  error: z.string().optional().describe("why the check could not complete (indexer or chain unreachable)"),
});
export type ProjectionFreshness = z.infer<typeof projectionFreshnessSchema>;

type PonderStatus = Record<string, { id: number; block: { number: number; timestamp: number } | null }>;

export class FreshnessProbe {
  private cached: { at: number; value: ProjectionFreshness } | null = null;
  private readonly client: PublicClient;
  constructor(
    private readonly ponderUrl: string,
    rpcUrl: string,
    private readonly chainId: number,
    private readonly now: () => number,
  ) {
    this.client = createPublicClient({ transport: http(rpcUrl, { timeout: 3_000, retryCount: 0 }) });
  }

  async check(): Promise<ProjectionFreshness> {
    // The cache runs on the monotonic clock: a service on a manual clock must still re-measure.
    const t = performance.now();
    if (this.cached && t - this.cached.at < FRESHNESS_CACHE_MS) return this.cached.value;
    const value = await this.measure(this.now());
    this.cached = { at: t, value };
    return value;
  }

  private async measure(t: number): Promise<ProjectionFreshness> {
    const checkedAt = new Date(t).toISOString();
    try {
      const [statusRes, head] = await Promise.all([
        fetch(new URL("/status", this.ponderUrl), { signal: AbortSignal.timeout(3_000) }),
        this.client.getBlock({ blockTag: "latest" }),
      ]);
      if (!statusRes.ok) throw new Error(`indexer /status answered ${statusRes.status}`);
      const status = (await statusRes.json()) as PonderStatus;
      const chain = Object.values(status).find((c) => c.id === this.chainId);
      const headBlockNumber = head.number.toString();
      if (!chain?.block) {
        return {
          source: "indexer",
          fresh: false,
          checkedAt,
          cursors: [{ chainId: this.chainId, blockNumber: null, headBlockNumber, lagSeconds: null, healthy: false }],
        };
      }
      const indexed = BigInt(chain.block.number);
      const lagBlocks = head.number > indexed ? head.number - indexed : 0n;
      const lagSeconds = Math.max(Number(head.timestamp) - chain.block.timestamp, 0);
      const healthy = lagBlocks <= BigInt(HEALTHY_LAG_BLOCKS) || lagSeconds <= HEALTHY_LAG_SECONDS;
      return {
        source: "indexer",
        fresh: healthy,
        checkedAt,
        cursors: [{ chainId: this.chainId, blockNumber: indexed.toString(), headBlockNumber, lagSeconds, healthy }],
      };
    } catch (err) {
      return {
        source: "indexer",
        fresh: false,
        checkedAt,
        cursors: [{ chainId: this.chainId, blockNumber: null, headBlockNumber: null, lagSeconds: null, healthy: false }],
        error: (err as Error).message,
      };
    }
  }
}
