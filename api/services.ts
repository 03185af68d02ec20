/**
 * The dependency container: every stateful part the API shares besides the ServiceContext, built completely by
 * `createServices` before the app exists (`startService` then calls `createApp(ctx, services)`). Operations read them
 * from `call.services`; nothing is plugged in later, and no field waits to be wired.
 */
import type { ServiceContext } from "./context";
import { MemoryWindowStore, RedisWindowStore, type WindowStore } from "./platform/rate-limit/window-store";
import { createMailer, type Mailer } from "./platform/mail/mailer";
import type { AllowanceSource } from "./domain/fills/allowance-source";
import { catalogDataSource, withCatalogFallback, type MarketDataSources } from "./domain/markets/data-source";
import { openOnchainProjection, type OnchainProjection } from "./domain/onchain/reads";
import { onchainDataSource } from "./domain/onchain/data-source";
import { openX402Runtime, type X402Runtime } from "./domain/pm/x402/runtime";
import { TokenSupplyReader } from "./domain/protocol/token-supply";
import { createTradeLanes, type TradeLanes } from "./domain/trading/trade-lanes";
import { engineAllowanceSource } from "./domain/venue/allowance";
import { engineDataSource } from "./domain/venue/engine-data-source";
import { openVenue } from "./domain/venue/open-venue";
import { openResolution, type Resolution } from "./domain/lifecycle/service";
import type { Venue } from "./domain/venue/types";
import { deployedLedger, type PublishedLedger } from "./domain/ledger/published-ledger";
import { EventHub } from "./transports/realtime/hub";
import { ExchangeMarketEvents } from "./transports/realtime/exchange-market-events";
import { connectRealtimeSources } from "./transports/realtime/wire";
import type { CreationDeps } from "./domain/markets/creation/flow";
import { FactoryFeeReader } from "./domain/markets/creation/factory-fees";
import { engineOutcomeOf } from "./domain/markets/creation/engine-outcomes";
import { announceListing } from "./transports/realtime/market-listings";
import { WebhookWorker } from "./transports/webhooks/worker";
import { queueLifecycleWebhooks } from "./transports/webhooks/lifecycle-deliveries";

export interface Services {
  /** Rate-limit windows (docs/api.md): in memory, or Redis with REDIS_URL. */
  windows: WindowStore;
  /** Outgoing mail (claim links, email verification): SMTP with SMTP_URL, else the outbox table. */
  mailer: Mailer;
  /** Realtime fan-out (docs/realtime.md): in process, or Redis pub/sub with REDIS_URL; fed by the venue. */
  hub: EventHub;
  /** Webhook delivery worker (docs/webhooks.md); deliveries are queued from the venue's execution reports. */
  webhooks: WebhookWorker;
  /** The committed venue: journal-backed exchange, batcher, agent accounts and markets (docs/venue.md). */
  venue: Venue;
  /** Fill allowances (GET /me `fills`, GET /fills/allowance), as the venue's engine counts them. */
  allowance: AllowanceSource;
  /** Depth, trades, holders and chart of a market, one source per lane (`marketData[market.settlement]`). */
  marketData: MarketDataSources;
  /** The on-chain lane's Ponder projection: market reads, intent executions and freshness (docs/indexer.md). */
  onchain: OnchainProjection;
  /**
   * Quote, prepare and intents of both trade lanes (api/domain/trading, docs/trading-onchain.md): the venue's committed
   * lane, and the on-chain lane over `onchain` with chain clients opened on first use.
   */
  trading: TradeLanes;
  /** PM purchases over x402 (docs/pm-purchase.md), opened on first use: SERVICE_UNAVAILABLE while no USDC is deployed. */
  x402: () => X402Runtime;
  /** PM's on-chain totalSupply for /discover/token-release, cached across calls. */
  tokenSupply: TokenSupplyReader;
  /** Resolution read models (claims, receipts, creator funds) projected from the journal, and their events (docs/resolution.md). */
  resolution: Resolution;
  /** Market creation (api/domain/markets/creation, docs/market-creation.md): the negotiate flow's dependencies. */
  creation: CreationDeps;
  /** The chain's published ledger, replayed for proofs, once a CommittedLedger is deployed (deployments/<chainId>.json). */
  publishedLedger: () => PublishedLedger | null;
}

export interface CreateServicesOptions {
  /** Key prefix of the Redis rate windows and channels (tests use a unique one). */
  redisPrefix?: string;
  /** Publish journal batches to the deployed CommittedLedger (docs/journal.md). */
  publish: boolean;
  /** The published ledger to serve proofs from; default: the CommittedLedger of deployments/<chainId>.json. */
  publishedLedger?: PublishedLedger;
}

/** The services and the one way to close them. */
export interface OpenServices {
  services: Services;
  /** Stops the realtime sources, closes the venue (batcher, exchange), stops the webhook worker, then the stores. */
  close(): Promise<void>;
}

/**
 * Builds every service, the venue included (the exchange is rebuilt from the journal here). A part that fails closes
 * the ones already open before the error is rethrown; the database stays the caller's.
 */
export async function createServices(ctx: ServiceContext, opts: CreateServicesOptions): Promise<OpenServices> {
  const { config, db, clock } = ctx;
  const now = () => clock.now();
  const opened: (() => Promise<void> | void)[] = [];
  try {
    const windows = config.REDIS_URL ? await RedisWindowStore.connect(config.REDIS_URL, opts.redisPrefix) : new MemoryWindowStore();
    opened.push(() => windows.close());
    const mailer = createMailer(config, db, clock, ctx.log.child({ part: "mail" }));
    opened.push(() => mailer.close());
    const hub = await EventHub.create({ redisUrl: config.REDIS_URL, prefix: opts.redisPrefix, maxStreamsPerAgent: config.REALTIME_MAX_STREAMS_PER_AGENT });
    opened.push(() => hub.close());
    const webhooks = new WebhookWorker({ db, clock, allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE, pollMs: config.WEBHOOKS_POLL_MS });
    opened.push(() => webhooks.stop());
    // The committed venue: exchange rebuilt from the journal, batcher, demo markets.
    const venue = await openVenue(ctx, { publish: opts.publish });
    opened.push(() => venue.close());
    const onchain = openOnchainProjection(ctx);
    const resolution = openResolution(ctx);
    opened.push(() => resolution.close());
    const services: Services = {
      windows,
      mailer,
      hub,
      webhooks,
      venue,
      allowance: engineAllowanceSource(venue.exchange),
      marketData: {
        committed: withCatalogFallback(db, now, engineDataSource(venue.exchange, now)),
        // Without the indexer, onchain markets answer from what the catalog recorded.
        onchain: config.INDEXER_ENABLED ? onchainDataSource(ctx, onchain) : catalogDataSource(db, now),
      },
      onchain,
      trading: createTradeLanes({ ctx, venue, projection: onchain }),
      x402: onFirstUse(() => openX402Runtime(ctx)),
      tokenSupply: new TokenSupplyReader(config.rpcUrl, now),
      resolution,
      creation: {
        ctx,
        venue,
        fees: new FactoryFeeReader(config),
        outcomeOf: engineOutcomeOf(venue.exchange),
        announce: (m) => announceListing(hub, m, clock.now()),
      },
      publishedLedger: opts.publishedLedger ? () => opts.publishedLedger ?? null : deployedLedger(config),
    };
    // Execution reports feed SSE/WS and the webhook queue; market events feed the market channels.
    const marketEvents = new ExchangeMarketEvents(venue.exchange, now);
    const disconnect = connectRealtimeSources(ctx, services, { reports: venue.exchange, market: marketEvents });
    // Lifecycle transitions and payouts, projected from the journal: market lane, webhooks, catalog, on-chain resolver.
    resolution.start({
      announce: (marketId, type, at, data) => marketEvents.announce(marketId, type, at, data),
      lifecycle: (marketId) => venue.exchange.engine.lifecycle(marketId),
      webhooks: async (events) => {
        if ((await queueLifecycleWebhooks(db, clock.now(), events)) > 0) webhooks.wake();
      },
    });
    return {
      services,
      async close() {
        disconnect();
        await resolution.close();
        await venue.close();
        await webhooks.stop();
        await Promise.all([windows.close(), mailer.close(), hub.close()]);
      },
    };
  } catch (err) {
    for (const close of opened.reverse()) await close();
    throw err;
  }
}

/** `open` on the first call, then the same value; a throw keeps nothing, so the next call tries again. */
function onFirstUse<T>(open: () => T): () => T {
  let opened: { value: T } | null = null;
  return () => (opened ??= { value: open() }).value;
}
