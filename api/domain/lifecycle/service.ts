/**
 * The resolution side of the service (docs/resolution.md "The API side"): the journal projection the claim and
 * creator-fund reads answer from, the on-chain claim reads, and the listeners that turn projected ops into events
 * (market data lane, webhooks) and on-chain resolver actions. Opened once by createServices.
 */
import type { ServiceContext } from "../../context";
import type { ClaimDeps } from "./claims";
import { JournalProjection, type LifecycleRow } from "./journal-projection";
import { OnchainClaims } from "./onchain-claims";

export interface Resolution {
  projection: JournalProjection;
  claims: ClaimDeps;
  /** Listeners of projected rows (events, catalog sync, resolver); each returns its unsubscribe function. */
  onRows(listener: (rows: LifecycleRow[]) => void): () => void;
  close(): Promise<void>;
}

export function openResolution(ctx: ServiceContext): Resolution {
  const projection = new JournalProjection(ctx.db, (err) => ctx.log.error({ err }, "lifecycle projection"));
  const onchain = new OnchainClaims(ctx.config.rpcUrl, () => ctx.clock.now());
  const claims: ClaimDeps = { ctx, onchain, sync: () => projection.sync() };
  return {
    projection,
    claims,
    onRows: (l) => projection.onRows(l),
    close: () => projection.close(),
  };
}
