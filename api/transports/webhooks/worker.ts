/**
 * The delivery worker: claims due deliveries (FOR UPDATE SKIP LOCKED, so several API instances share the queue), only
 * the oldest pending one of each subscription (enqueue order: a backlog after an outage arrives in order, one at a time),
 * POSTs each signed body to its subscription's URL and records the attempt. 2xx: delivered. 410 Gone: the endpoint is
 * disabled and its pending deliveries cancelled. Anything else (other status, refused, timeout, blocked address):
 * retried on the Standard Webhooks schedule (schedule.ts), later if the answer carried Retry-After; after the last
 * retry the delivery is marked failed. Redirects are not followed. Time comes from the injected clock; `runDue()` is
 * one pass (tests drive it), `start()` polls every WEBHOOKS_POLL_MS.
 */
import http from "node:http";
import https from "node:https";
import type { Logger } from "pino";
import type { Database } from "../../../relayer/db/client";
import { movable, type Clock } from "../../../relayer/clock";
import { guardedLookup } from "../../domain/webhooks/address-guard";
import { parseRetryAfter, retryDelay, STANDARD_RETRY_SCHEDULE_MS } from "../../domain/webhooks/schedule";
import { webhookHeaders } from "../../domain/webhooks/signing";
import { disableSubscription, liveSecrets, toSubscription, type SubscriptionRow } from "../../domain/webhooks/store";

export interface WebhookWorkerOptions {
  db: Database;
  clock: Clock;
  log?: Logger;
  allowPrivate: boolean;
  schedule?: readonly number[];
  random?: () => number;
  /** Per attempt, connect to last byte. */
  timeoutMs?: number;
  pollMs?: number;
  /** Deliveries claimed per pass. */
  batch?: number;
}

const LEASE_MS = 60_000;
const MAX_ERROR_CHARS = 300;

interface Claimed {
  id: string;
  subscription_id: string;
  payload: string;
  attempts: number;
}

interface AttemptResult {
  status: number | null;
  retryAfter: string | null;
  error: string | null;
}

export class WebhookWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private readonly schedule: readonly number[];
  private stopped = false;

  constructor(private readonly o: WebhookWorkerOptions) {
    this.schedule = o.schedule ?? STANDARD_RETRY_SCHEDULE_MS;
  }

  start(): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.o.pollMs ?? 1000);
    this.timer.unref();
  }

  /** Runs a pass soon (after an enqueue), unless one is running. */
  wake(): void {
    if (this.stopped || this.running) return;
    this.runDue().catch((err) => this.o.log?.error({ err }, "webhook worker"));
  }

  /** One pass: every delivery due now, until none is left. Returns how many attempts were made. */
  async runDue(): Promise<number> {
    if (this.running) return this.running;
    this.running = (async () => {
      let total = 0;
      for (;;) {
        const claimed = await this.claim();
        if (claimed.length === 0) return total;
        await Promise.all(claimed.map((d) => this.attempt(d)));
        total += claimed.length;
      }
    })();
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  private async claim(): Promise<Claimed[]> {
    const now = this.o.clock.now();
    return this.o.db.query<Claimed>(
      `UPDATE api_webhook_deliveries SET next_attempt_at = $2
       WHERE id IN (SELECT d.id FROM api_webhook_deliveries d WHERE d.status = 'pending' AND d.next_attempt_at <= $1
         AND NOT EXISTS (SELECT 1 FROM api_webhook_deliveries e WHERE e.subscription_id = d.subscription_id AND e.status = 'pending' AND e.enqueue_seq < d.enqueue_seq)
         ORDER BY d.next_attempt_at, d.enqueue_seq LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, subscription_id, payload, attempts`,
      [now, now + LEASE_MS, this.o.batch ?? 20],
    );
  }

  private async attempt(d: Claimed): Promise<void> {
    const db = this.o.db;
    const [row] = await db.query<SubscriptionRow>(`SELECT * FROM api_webhook_subscriptions WHERE id = $1`, [d.subscription_id]);
    const now = this.o.clock.now();
    if (row?.status !== "enabled") {
      await db.query(`UPDATE api_webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, completed_at = $2 WHERE id = $1`, [d.id, now]);
      return;
    }
    const sub = toSubscription(row);
    // webhook-timestamp is checked against the receiver's clock (Standard Webhooks' 5-minute tolerance): the instant
    // of sending, without the offset an operator moved a dev chain's service clock by (docs/dev-chain.md).
    const sentAt = now - (movable(this.o.clock)?.offsetMs() ?? 0);
    const headers = webhookHeaders(liveSecrets(sub, now), d.id, sentAt, d.payload);
    // A duration, not an instant: the monotonic timer (the service clock may be moved by an operator).
    const started = performance.now();
    const result = await this.post(sub.url, d.payload, headers);
    const durationMs = Math.round(performance.now() - started);
    const attempt = Number(d.attempts) + 1;
    const after = this.o.clock.now();
    let status: "succeeded" | "failed" | "pending";
    let next: number | null = null;
    if (result.status !== null && result.status >= 200 && result.status < 300) status = "succeeded";
    else if (result.status === 410) status = "failed";
    else {
      const delay = retryDelay(attempt, this.schedule, this.o.random);
      if (delay === null) status = "failed";
      else {
        status = "pending";
        next = after + Math.max(delay, parseRetryAfter(result.retryAfter, after) ?? 0);
      }
    }
    const error = result.error ?? (status === "succeeded" ? null : `HTTP ${result.status}`);
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO api_webhook_attempts (delivery_id, attempt, at, response_status, error, duration_ms, next_attempt_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [d.id, attempt, now, result.status, error, durationMs, next],
      );
      await tx.query(
        `UPDATE api_webhook_deliveries SET status = $2, attempts = $3, next_attempt_at = $4, last_response_status = $5, last_error = $6, completed_at = $7 WHERE id = $1`,
        [d.id, status, attempt, next, result.status, error, status === "pending" ? null : after],
      );
      if (result.status === 410) await disableSubscription(tx, sub.id, "endpoint answered 410 Gone", after);
    });
  }

  private post(target: string, body: string, signed: Record<string, string>): Promise<AttemptResult> {
    return new Promise((resolve) => {
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        return resolve({ status: null, retryAfter: null, error: "invalid url" });
      }
      const lib = url.protocol === "https:" ? https : http;
      const req = lib.request(
        url,
        {
          method: "POST",
          lookup: guardedLookup(this.o.allowPrivate),
          timeout: this.o.timeoutMs ?? 15_000,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": "pm-agent-api-webhooks/1", ...signed },
        },
        (res) => {
          res.resume(); // the body is ignored; read it so the socket is freed
          res.on("end", () => resolve({ status: res.statusCode ?? null, retryAfter: headerOf(res.headers["retry-after"]), error: null }));
          res.on("error", (err) => resolve({ status: res.statusCode ?? null, retryAfter: null, error: err.message.slice(0, MAX_ERROR_CHARS) }));
        },
      );
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", (err: Error & { code?: string }) =>
        resolve({ status: null, retryAfter: null, error: `${err.code ?? "error"}: ${err.message}`.slice(0, MAX_ERROR_CHARS) }),
      );
      req.end(body);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => 0);
  }
}

function headerOf(v: string | string[] | undefined): string | null {
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}
