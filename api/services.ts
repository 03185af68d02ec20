/**
 * The stateful helpers the API shares besides the ServiceContext: the rate-limit window store (memory, or Redis with
 * REDIS_URL) and the mailer (SMTP with SMTP_URL, else the outbox table). Built once in `startService`.
 */
import type { Config } from "./config";
import type { Database } from "../relayer/db/client";
import type { Clock } from "../relayer/clock";
import { MemoryWindowStore, RedisWindowStore, type WindowStore } from "./platform/rate-limit/window-store";
import { createMailer, type MailLog, type Mailer } from "./platform/mail/mailer";
import { dormantAllowanceSource, type AllowanceSource } from "./domain/fills/allowance-source";
import { EventHub } from "./transports/realtime/hub";
import { WebhookWorker } from "./transports/webhooks/worker";
import type { Venue } from "./domain/venue/types";

export interface Services {
  windows: WindowStore;
  mailer: Mailer;
  /** Fill allowances (GET /me, GET /fills/allowance); the exchange replaces the dormant default once wired. */
  allowance: AllowanceSource;
  /** Realtime fan-out (docs/realtime.md): in process, or Redis pub/sub with REDIS_URL. Sources plug in via api/transports/realtime/wire.ts. */
  hub: EventHub;
  /** Webhook delivery worker (docs/webhooks.md). */
  webhooks: WebhookWorker;
  /** The committed venue (exchange, accounts, markets); set by `startService` right after the services are built. */
  venue: Venue | null;
}

export async function createServices(config: Config, db: Database, clock: Clock, opts: { redisPrefix?: string; log?: MailLog } = {}): Promise<Services> {
  const windows = config.REDIS_URL ? await RedisWindowStore.connect(config.REDIS_URL, opts.redisPrefix) : new MemoryWindowStore();
  const hub = await EventHub.create({ redisUrl: config.REDIS_URL, prefix: opts.redisPrefix, maxStreamsPerAgent: config.REALTIME_MAX_STREAMS_PER_AGENT });
  const webhooks = new WebhookWorker({ db, clock, allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE, pollMs: config.WEBHOOKS_POLL_MS });
  return { windows, mailer: createMailer(config, db, clock, opts.log), allowance: dormantAllowanceSource, hub, webhooks, venue: null };
}

export async function closeServices(s: Services): Promise<void> {
  await s.venue?.close();
  await s.webhooks.stop();
  await Promise.all([s.windows.close(), s.mailer.close(), s.hub.close()]);
}
