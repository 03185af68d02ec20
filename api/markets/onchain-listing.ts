/**
 * The seam through which on-chain (LmsrMarket) markets join the catalog, so `/discover/markets` and the detail show
 * one venue with two lanes. The on-chain projection (api/onchain, not written when this was) calls
 * `upsertOnchainMarket` for each market it sees and again when its state or deadlines move; depth, chart, trades and
 * holders of those markets come from `useMarketDataSource(ctx, "onchain", …)`.
 */
import type { SqlRunner } from "../../relayer/db/client";
import type { MarketState } from "../discovery-docs/market-states";
import { insertCatalogMarket, loadMarket } from "./catalog-store";
import type { CatalogMarket, NewCatalogMarket } from "./catalog-types";

export type OnchainListing = Omit<NewCatalogMarket, "settlement" | "marketId" | "address"> & {
  address: string;
  /** Where the market stands now, as the chain says. */
  state?: MarketState;
  challengeBy?: number | null;
  humanVoteEndsAt?: number | null;
  councilReviewEndsAt?: number | null;
  resolvedAt?: number | null;
  resolvedOutcome?: number | null;
};

/**
 * Lists an on-chain market, or refreshes the lifecycle fields of a listed one (state, stage deadlines, resolution).
 * The chain is the authority here, so no transition check applies; the stamped trading rules never change.
 */
export async function upsertOnchainMarket(db: SqlRunner, m: OnchainListing): Promise<CatalogMarket> {
  const { challengeBy, humanVoteEndsAt, councilReviewEndsAt, resolvedAt, resolvedOutcome, ...listing } = m;
  if (!(await loadMarket(db, m.chainId, m.address, m.createdAt))) {
    try {
      await insertCatalogMarket(db, { ...listing, settlement: "onchain" });
    } catch (err) {
      // A concurrent projection listed it first: refresh below.
      if ((err as { code?: unknown }).code !== "23505") throw err;
    }
  }
  await db.query(
    `UPDATE markets SET state = COALESCE($3, state), challenge_by = COALESCE($4, challenge_by),
       human_vote_ends_at = COALESCE($5, human_vote_ends_at), council_review_ends_at = COALESCE($6, council_review_ends_at),
       resolved_at = COALESCE($7, resolved_at), resolved_outcome = COALESCE($8, resolved_outcome)
     WHERE chain_id = $1 AND address = $2 AND settlement = 'onchain'`,
    [m.chainId, m.address.toLowerCase(), m.state ?? null, challengeBy ?? null, humanVoteEndsAt ?? null, councilReviewEndsAt ?? null, resolvedAt ?? null, resolvedOutcome ?? null],
  );
  const row = await loadMarket(db, m.chainId, m.address, m.createdAt);
  if (!row || row.settlement !== "onchain") throw new Error(`${m.address} on chain ${m.chainId} is listed as a committed market`);
  return row;
}
