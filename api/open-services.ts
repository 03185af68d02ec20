/**
 * Builds what the service runs on: the container the operations see (`Services`, api/services.ts) and, beside it, the
 * transports that deliver events to agents (`Delivery`: the realtime hub and the webhook worker), wired together here
 * (execution reports and market events into the hub and the webhook queue, listings and lifecycle events out).
 * `startService` (api/service.ts) calls `createServices`, then `createApp(ctx, opened)`.
 */
import type { ServiceContext } from "./context";
import type { Services } from "./services";
import { MemoryWindowStore, RedisWindowStore } from "./platform/rate-limit/window-store";
import { createMailer } from "./platform/mail/mailer";
import { catalogDataSource, withCatalogFallback } from "./domain/markets/data-source";
import { openOnchainProjection } from "./domain/onchain/reads";
import { onchainDataSource } from "./domain/onchain/data-source";
import { openX402Runtime } from "./domain/pm/x402/runtime";
import { TokenSupplyReader } from "./domain/protocol/token-supply";
import { createTradeLanes } from "./domain/trading/trade-lanes";
import { engineAllowanceSource } from "./domain/venue/allowance";
import { engineDataSource } from "./domain/venue/engine-data-source";
import { openVenue } from "./domain/venue/open-venue";
import type { JournalReplay } from "../relayer/exchange/journal-replay";
import { openResolution } from "./domain/lifecycle/service";
import { Leaderboard } from "./domain/ranking/leaderboard";
import { ReputationEventLog } from "./domain/ranking/reputation-events";
import { CashFlowLog } from "./domain/ranking/cash-flows";
import { distributorChain } from "./domain/release/distributor-chain";
import { ParticipationRelease } from "./domain/release/release";
import { TradeDayLog } from "./domain/release/trade-days";
import { JournalFollower } from "./domain/ledger/journal-follower";
import { deployedLedger, type PublishedLedger } from "./domain/ledger/published-ledger";
import { FactoryFeeReader } from "./domain/creation/factory-fees";
import { engineOutcomeOf } from "./domain/creation/engine-outcomes";
import { EventHub } from "./transports/realtime/hub";
import { ExchangeMarketEvents } from "./transports/realtime/exchange-market-events";
import { connectRealtimeSources, type Delivery } from "./transports/delivery";
import { announceListing } from "./transports/realtime/market-listings";
import { WebhookWorker } from "./transports/webhooks/worker";
import { queueLifecycleWebhooks } from "./transports/webhooks/lifecycle-deliveries";

export interface CreateServicesOptions {
  /** Key prefix of the Redis rate windows and channels (tests use a unique one). */
  redisPrefix?: string;
  /** Publish journal batches to the deployed CommittedLedger (docs/journal.md). */
  publish: boolean;
  /** The published ledger to serve proofs from; default: the CommittedLedger of deployments/<chainId>.json. */
  publishedLedger?: PublishedLedger;
  /** A follower's warm replay of the journal, handed over at a take-over (api/leadership.ts). */
  replay?: JournalReplay;
}

/** The services, the delivery transports beside them, and the one way to close them. */
export interface OpenServices {
  services: Services;
  delivery: Delivery;
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
  const given = opts.publishedLedger;
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
    const venue = await openVenue(ctx, { publish: opts.publish, replay: opts.replay });
    opened.push(() => venue.close());
    const onchain = openOnchainProjection(ctx);
    const resolution = openResolution(ctx);
    opened.push(() => resolution.close());
    // One reader of the journal for the account histories (reputation events, cash flows, trade days).
    const journal = new JournalFollower(db, (err) => ctx.log.warn({ err }, "projecting the journal into the account histories failed; the next read retries"));
    opened.push(() => journal.close());
    const services: Services = {
      windows,
      mailer,
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
      leaderboard: new Leaderboard({
        db,
        clock,
        chainId: config.CHAIN_ID,
        season: { start: config.LEADERBOARD_SEASON_START, end: config.LEADERBOARD_SEASON_END },
        refreshMs: config.LEADERBOARD_REFRESH_MS,
        checkpointEvery: config.SNAPSHOT_EVERY,
        log: ctx.log.child({ part: "leaderboard" }),
      }),
      reputationEvents: new ReputationEventLog(db, journal),
      cashFlows: new CashFlowLog(db, journal),
      participation: new ParticipationRelease({
        db,
        chain: distributorChain(config),
        tradeDays: new TradeDayLog(db, journal),
        now,
        confirmations: config.PARTICIPATION_CONFIRMATIONS,
        delivery: config.PARTICIPATION_DELIVERY,
      }),
      creation: {
        ctx,
        venue,
        fees: new FactoryFeeReader(config),
        outcomeOf: engineOutcomeOf(venue.exchange),
        announce: (m) => announceListing(hub, m, clock.now()),
      },
      publishedLedger: given ? () => given : deployedLedger(config),
    };
    // Execution reports feed SSE/WS and the webhook queue; market events feed the market channels.
    const marketEvents = new ExchangeMarketEvents(venue.exchange, now);
    const delivery: Delivery = { hub, webhooks };
    const disconnect = connectRealtimeSources(ctx, delivery, { reports: venue.exchange, market: marketEvents });
    // Lifecycle transitions and payouts, projected from the journal: market lane, webhooks, catalog, on-chain resolver.
    resolution.start({
      announce: (marketId, type, at, data) => marketEvents.announce(marketId, type, at, data),
      lifecycle: (marketId) => venue.exchange.engine.lifecycle(marketId),
      webhooks: async (events) => {
        if ((await queueLifecycleWebhooks(db, clock.now(), events)) > 0) webhooks.wake();
      },
    });
    journal.start();
    return {
      services,
      delivery,
      async close() {
        disconnect();
        await journal.close();
        await services.leaderboard.close();
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
