/**
 * The dependency container the operations see (`call.services`): every stateful part of the domain and the platform
 * besides the ServiceContext, built completely by `createServices` (api/open-services.ts) before the app exists.
 * Operations read them from `call.services`; nothing is plugged in later, and no field waits to be wired.
 *
 * The parts that deliver events to agents, the realtime hub and the webhook worker, are transports: they stand beside
 * this container (`Delivery`, api/transports/delivery.ts), so that this file, the registry and the operations import no
 * transport.
 */
import type { WindowStore } from "./platform/rate-limit/window-store";
import type { Mailer } from "./platform/mail/mailer";
import type { AllowanceSource } from "./domain/fills/allowance-source";
import type { MarketDataSources } from "./domain/markets/data-source";
import type { OnchainProjection } from "./domain/onchain/reads";
import type { X402Runtime } from "./domain/pm/x402/runtime";
import type { TokenSupplyReader } from "./domain/protocol/token-supply";
import type { TradeLanes } from "./domain/trading/trade-lanes";
import type { Resolution } from "./domain/lifecycle/service";
import type { Venue } from "./domain/venue/types";
import type { PublishedLedger } from "./domain/ledger/published-ledger";
import type { CreationDeps } from "./domain/creation/flow";
import type { Leaderboard } from "./domain/ranking/leaderboard";
import type { ReputationEventLog } from "./domain/ranking/reputation-events";
import type { CashFlowLog } from "./domain/ranking/cash-flows";
import type { ParticipationRelease } from "./domain/release/release";

export interface Services {
  /** Rate-limit windows (docs/api.md): in memory, or Redis with REDIS_URL. */
  windows: WindowStore;
  /** Outgoing mail (claim links, email verification): SMTP with SMTP_URL, else the outbox table. */
  mailer: Mailer;
  /**
   * The webhook worker as the operations and the operator's API see it: a nudge to deliver what was just queued
   * (docs/webhooks.md). The worker itself is a transport (`Delivery.webhooks`, api/transports/delivery.ts).
   */
  webhooks: { wake(): void };
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
  /** Trader, creator and voter boards ranked from the journal, published in generations (docs/leaderboard.md). */
  leaderboard: Leaderboard;
  /** Each account's reputation events from the journal (GET /agents/me/reputation/events). */
  reputationEvents: ReputationEventLog;
  /** Each account's trading cash flows from the journal (GET /discover/traders/{address}/pnl-history, deprecated). */
  cashFlows: CashFlowLog;
  /** PM's participation release (docs/participation-release.md): lanes, claims, the distributor on chain. */
  participation: ParticipationRelease;
  /** Market creation (api/domain/creation, docs/market-creation.md): the negotiate flow's dependencies. */
  creation: CreationDeps;
  /** The chain's published ledger, replayed for proofs, once a CommittedLedger is deployed (deployments/<chainId>.json). */
  publishedLedger: () => PublishedLedger | null;
}
