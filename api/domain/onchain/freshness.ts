/**
 * Projection freshness: how far the indexer's last indexed block trails the chain head. Ponder's `/status` gives the
 * indexed block per chain (number and timestamp); viem's getBlock gives the head. Answers are cached for
 * FRESHNESS_CACHE_MS so discovery responses that embed it do not each cost two round trips. Block numbers are digits
 * strings (the contract's "Projection freshness"), lagSeconds an integer; both null when unknown. An indexer that is
 * down or restarting is never fresh, and its lag keeps growing from the last block it reported.
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
      blockNumber: BlockNumber.nullable().describe(
        "last block the indexer projected (while it is unreachable or restarting: the last one it reported); null when unknown",
      ),
      headBlockNumber: BlockNumber.nullable().describe("the chain head it was compared with; null when unknown"),
      lagSeconds: z.number().int().nonnegative().nullable().describe("head timestamp minus indexed block timestamp; null when unknown"),
      healthy: z.boolean(),
    }),
  ),
  error: z.string().optional().describe("why the check could not complete (indexer or chain unreachable)"),
});
export type ProjectionFreshness = z.infer<typeof projectionFreshnessSchema>;

type PonderStatus = Record<string, { id: number; block: { number: number; timestamp: number } | null }>;
type IndexedBlock = { number: bigint; timestamp: number };

export class FreshnessProbe {
  private cached: { at: number; value: ProjectionFreshness } | null = null;
  /**
   * The last block the indexer reported. While the indexer is down or restarting (its /status unreachable or without
   * a block), the projection it left is still there: lag is reported against this block, so it keeps growing with the
   * head instead of turning null (test/faults/indexer-restart.test.ts). It is an upper bound of what is indexed (a
   * restarted Ponder may roll back to its last safe checkpoint), so the lag shown is a lower bound; never healthy.
   */
  private lastSeen: IndexedBlock | null = null;
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

  /** The indexer's last projected block of this chain, or null when it reports none (yet). */
  private async indexedBlock(): Promise<IndexedBlock | null> {
    const res = await fetch(new URL("/status", this.ponderUrl), { signal: AbortSignal.timeout(3_000) });
    if (!res.ok) throw new Error(`indexer /status answered ${res.status}`);
    const status = (await res.json()) as PonderStatus;
    const block = Object.values(status).find((c) => c.id === this.chainId)?.block;
    return block ? { number: BigInt(block.number), timestamp: block.timestamp } : null;
  }

  private async measure(t: number): Promise<ProjectionFreshness> {
    const checkedAt = new Date(t).toISOString();
    const [indexedR, headR] = await Promise.allSettled([this.indexedBlock(), this.client.getBlock({ blockTag: "latest" })]);
    const errors: string[] = [];
    let indexed: IndexedBlock | null = null;
    let live = false; // the indexer itself answered with its block
    if (indexedR.status === "fulfilled" && indexedR.value) {
      indexed = this.lastSeen = indexedR.value;
      live = true;
    } else {
      if (indexedR.status === "rejected") errors.push(`indexer: ${(indexedR.reason as Error).message}`);
      indexed = this.lastSeen;
    }
    const head = headR.status === "fulfilled" ? headR.value : null;
    if (headR.status === "rejected") errors.push(`chain: ${(headR.reason as Error).message}`);
    let lagSeconds: number | null = null;
    let healthy = false;
    if (indexed && head) {
      const lagBlocks = head.number > indexed.number ? head.number - indexed.number : 0n;
      lagSeconds = Math.max(Number(head.timestamp) - indexed.timestamp, 0);
      healthy = live && (lagBlocks <= BigInt(HEALTHY_LAG_BLOCKS) || lagSeconds <= HEALTHY_LAG_SECONDS);
    }
    return {
      source: "indexer",
      fresh: healthy,
      checkedAt,
      cursors: [
        {
          chainId: this.chainId,
          blockNumber: indexed ? indexed.number.toString() : null,
          headBlockNumber: head ? head.number.toString() : null,
          lagSeconds,
          healthy,
        },
      ],
      ...(errors.length > 0 ? { error: errors.join("; ") } : {}),
    };
  }
}
