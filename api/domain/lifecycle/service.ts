/**
 * The resolution side of the service (docs/resolution.md "The API side"): the journal projection the claim and
 * creator-fund reads answer from, the on-chain claim reads and resolver, and the listener that turns projected ops
 * into events (market data lane, webhooks, the catalog) and on-chain resolver actions. Opened once by createServices;
 * `start` connects the sinks once the realtime side exists.
 */
import type { ServiceContext } from "../../context";
import type { ClaimDeps } from "./claims";
import { publishLifecycleRows, type LifecycleEventSinks } from "./events";
import { JournalProjection } from "./journal-projection";
import { OnchainClaims } from "./onchain-claims";
import { OnchainResolver } from "./onchain-resolver";

export interface Resolution {
  projection: JournalProjection;
  claims: ClaimDeps;
  resolver: OnchainResolver;
  /** Connects events and the resolver to the projection, and projects what the journal holds already. */
  start(sinks: LifecycleEventSinks): void;
  close(): Promise<void>;
}

export function openResolution(ctx: ServiceContext): Resolution {
  const onError = (err: unknown) => ctx.log.error({ err }, "lifecycle projection");
  const projection = new JournalProjection(ctx.db, onError);
  const onchain = new OnchainClaims(ctx.config.rpcUrl, () => ctx.clock.now());
  const resolver = new OnchainResolver(ctx);
  const claims: ClaimDeps = { ctx, onchain, sync: () => projection.sync() };
  let off: (() => void) | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  return {
    projection,
    claims,
    resolver,
    start(sinks) {
      off = projection.onRows((rows) => {
        // In journal order, one page after the other.
        chain = chain
          .then(() => publishLifecycleRows(ctx, sinks, rows))
          .then(() => resolver.onRows(rows))
          .catch(onError);
      });
      projection.sync().catch(onError);
      resolver.work().catch(onError);
    },
    async close() {
      off?.();
      await projection.close();
      await chain.catch(() => {});
      await resolver.close();
    },
  };
}
