/**
 * Webhook subscriptions and deliveries in SQL (migration 300_webhooks.sql). Every read is scoped to the owning agent;
 * another agent's subscription reads as not found.
 */
import { randomBytes } from "node:crypto";
import type { SqlRunner } from "../../../relayer/db/client";
import { ApiError } from "../../platform/errors/api-error";
import { newWebhookSecret } from "./signing";

/** Event types a subscription may receive. */
export const WEBHOOK_EVENT_TYPES = ["execution:report", "webhook.test", "market.state_changed", "payout.credited"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Most live secrets a subscription keeps (the newest plus rotated ones still in their grace period). */
export const MAX_SECRETS = 5;
export const MAX_SUBSCRIPTIONS_PER_AGENT = 20;

export interface StoredSecret {
  secret: string;
  createdAt: number;
  expiresAt: number | null;
}

export interface SubscriptionRow {
  id: string;
  agent_id: string;
  account: string;
  url: string;
  event_types: string[] | string;
  description: string;
  status: "enabled" | "disabled";
  disabled_reason: string | null;
  secrets: StoredSecret[] | string;
  created_at: string | number;
  updated_at: string | number;
}

export interface Subscription {
  id: string;
  agentId: string;
  account: string;
  url: string;
  eventTypes: string[];
  description: string;
  status: "enabled" | "disabled";
  disabledReason: string | null;
  secrets: StoredSecret[];
  createdAt: number;
  updatedAt: number;
}

const json = <T>(v: T | string): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);
// jsonb parameters are sent as `$n::text::jsonb`: postgres.js would JSON-encode a string bound to a jsonb parameter again.

export function toSubscription(r: SubscriptionRow): Subscription {
  return {
    id: r.id,
    agentId: r.agent_id,
    account: r.account,
    url: r.url,
    eventTypes: json(r.event_types),
    description: r.description,
    status: r.status,
    disabledReason: r.disabled_reason,
    secrets: json(r.secrets),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** Secrets that sign at `now`: the newest and rotated ones whose grace has not run out. */
export function liveSecrets(s: Pick<Subscription, "secrets">, now: number): string[] {
  return s.secrets.filter((x) => x.expiresAt === null || x.expiresAt > now).map((x) => x.secret);
}

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

export async function createSubscription(
  db: SqlRunner,
  a: { agentId: string; account: string; url: string; eventTypes: string[]; description: string },
  now: number,
): Promise<{ sub: Subscription; secret: string }> {
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM api_webhook_subscriptions WHERE agent_id = $1`, [a.agentId]);
  if (n >= MAX_SUBSCRIPTIONS_PER_AGENT)
    throw new ApiError("CONFLICT", `an agent may hold at most ${MAX_SUBSCRIPTIONS_PER_AGENT} webhook subscriptions`, { limit: MAX_SUBSCRIPTIONS_PER_AGENT });
  const secret = newWebhookSecret();
  const secrets: StoredSecret[] = [{ secret, createdAt: now, expiresAt: null }];
  const [row] = await db.query<SubscriptionRow>(
    `INSERT INTO api_webhook_subscriptions (id, agent_id, account, url, event_types, description, secrets, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $7::text::jsonb, $8, $8) RETURNING *`,
    [newId("wh"), a.agentId, a.account.toLowerCase(), a.url, JSON.stringify(a.eventTypes), a.description, JSON.stringify(secrets), now],
  );
  return { sub: toSubscription(row), secret };
}

export async function subscriptionOf(db: SqlRunner, agentId: string, id: string): Promise<Subscription> {
  const [row] = await db.query<SubscriptionRow>(`SELECT * FROM api_webhook_subscriptions WHERE id = $1 AND agent_id = $2`, [id, agentId]);
  if (!row) throw new ApiError("NOT_FOUND", `the agent has no webhook subscription ${id}`, { field: "webhookId" });
  return toSubscription(row);
}

export async function subscriptionsOf(db: SqlRunner, agentId: string): Promise<Subscription[]> {
  const rows = await db.query<SubscriptionRow>(`SELECT * FROM api_webhook_subscriptions WHERE agent_id = $1 ORDER BY created_at, id`, [agentId]);
  return rows.map(toSubscription);
}

export async function updateSubscription(
  db: SqlRunner,
  agentId: string,
  id: string,
  patch: { url?: string; eventTypes?: string[]; description?: string; enabled?: boolean },
  now: number,
): Promise<Subscription> {
  const cur = await subscriptionOf(db, agentId, id);
  const status = patch.enabled === undefined ? cur.status : patch.enabled ? "enabled" : "disabled";
  const reason = status === "enabled" ? null : patch.enabled === false ? "disabled by owner" : cur.disabledReason;
  const [row] = await db.query<SubscriptionRow>(
    `UPDATE api_webhook_subscriptions SET url = $3, event_types = $4::text::jsonb, description = $5, status = $6, disabled_reason = $7, updated_at = $8
     WHERE id = $1 AND agent_id = $2 RETURNING *`,
    [id, agentId, patch.url ?? cur.url, JSON.stringify(patch.eventTypes ?? cur.eventTypes), patch.description ?? cur.description, status, reason, now],
  );
  if (status === "disabled") await cancelPending(db, id, now);
  return toSubscription(row);
}

export async function deleteSubscription(db: SqlRunner, agentId: string, id: string): Promise<void> {
  await subscriptionOf(db, agentId, id);
  await db.query(`DELETE FROM api_webhook_subscriptions WHERE id = $1 AND agent_id = $2`, [id, agentId]);
}

/** New secret first; every older live secret keeps signing until now + graceMs. */
export async function rotateSecret(db: SqlRunner, agentId: string, id: string, graceMs: number, now: number): Promise<{ sub: Subscription; secret: string }> {
  const cur = await subscriptionOf(db, agentId, id);
  const secret = newWebhookSecret();
  const older = cur.secrets
    .filter((s) => s.expiresAt === null || s.expiresAt > now)
    .map((s) => ({ ...s, expiresAt: Math.min(s.expiresAt ?? Infinity, now + graceMs) }))
    .filter((s) => s.expiresAt > now);
  const secrets: StoredSecret[] = [{ secret, createdAt: now, expiresAt: null }, ...older].slice(0, MAX_SECRETS);
  const [row] = await db.query<SubscriptionRow>(
    `UPDATE api_webhook_subscriptions SET secrets = $3::text::jsonb, updated_at = $4 WHERE id = $1 AND agent_id = $2 RETURNING *`,
    [id, agentId, JSON.stringify(secrets), now],
  );
  return { sub: toSubscription(row), secret };
}

export async function disableSubscription(db: SqlRunner, id: string, reason: string, now: number): Promise<void> {
  await db.query(`UPDATE api_webhook_subscriptions SET status = 'disabled', disabled_reason = $2, updated_at = $3 WHERE id = $1`, [id, reason, now]);
  await cancelPending(db, id, now);
}

async function cancelPending(db: SqlRunner, subscriptionId: string, now: number): Promise<void> {
  await db.query(
    `UPDATE api_webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, completed_at = $2 WHERE subscription_id = $1 AND status = 'pending'`,
    [subscriptionId, now],
  );
}

/** Queues one message to one subscription (sent by the worker at once). Returns the message id (webhook-id). */
export async function enqueueDelivery(db: SqlRunner, subscriptionId: string, eventType: string, data: unknown, now: number): Promise<string> {
  const id = newId("msg");
  const payload = JSON.stringify({ type: eventType, timestamp: new Date(now).toISOString(), data });
  await db.query(
    `INSERT INTO api_webhook_deliveries (id, subscription_id, event_type, payload, status, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, 'pending', $5, $5)`,
    [id, subscriptionId, eventType, payload, now],
  );
  return id;
}

export interface DeliveryView {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  nextAttemptAt: number | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  createdAt: number;
  completedAt: number | null;
  payload: string;
  attemptLog: { attempt: number; at: number; responseStatus: number | null; error: string | null; durationMs: number; nextAttemptAt: number | null }[];
}

/** The newest deliveries of a subscription, with every attempt; keyset by (created_at, id) descending. */
export async function deliveryLog(
  db: SqlRunner,
  subscriptionId: string,
  limit: number,
  before: { createdAt: number; id: string } | null,
): Promise<DeliveryView[]> {
  const rows = await db.query<Record<string, string | number | null>>(
    `SELECT * FROM api_webhook_deliveries WHERE subscription_id = $1 AND ($2::bigint IS NULL OR (created_at, id) < ($2::bigint, $3::text))
     ORDER BY created_at DESC, id DESC LIMIT $4`,
    [subscriptionId, before?.createdAt ?? null, before?.id ?? "", limit],
  );
  if (rows.length === 0) return [];
  const attempts = await db.query<Record<string, string | number | null>>(
    `SELECT * FROM api_webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY attempt`,
    [rows.map((r) => r.id)],
  );
  const num = (v: string | number | null) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    id: String(r.id),
    eventType: String(r.event_type),
    status: String(r.status),
    attempts: Number(r.attempts),
    nextAttemptAt: num(r.next_attempt_at),
    lastResponseStatus: num(r.last_response_status),
    lastError: r.last_error === null ? null : String(r.last_error),
    createdAt: Number(r.created_at),
    completedAt: num(r.completed_at),
    payload: String(r.payload),
    attemptLog: attempts
      .filter((a) => a.delivery_id === r.id)
      .map((a) => ({
        attempt: Number(a.attempt),
        at: Number(a.at),
        responseStatus: num(a.response_status),
        error: a.error === null ? null : String(a.error),
        durationMs: Number(a.duration_ms),
        nextAttemptAt: num(a.next_attempt_at),
      })),
  }));
}
