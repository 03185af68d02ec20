-- Webhook subscriptions of agents and their deliveries (docs/webhooks.md). Instants are epoch milliseconds.
-- Signing secrets are kept in clear: the service must sign with them (Standard Webhooks symmetric scheme).

CREATE TABLE api_webhook_subscriptions (
  id text PRIMARY KEY,                      -- wh_ + 24 hex
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  account text NOT NULL,                    -- the agent's ledger account: whose execution reports it receives
  url text NOT NULL,
  event_types jsonb NOT NULL,               -- array of event type names
  description text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  disabled_reason text,
  secrets jsonb NOT NULL,                   -- [{secret, createdAt, expiresAt|null}], newest first; expired ones pruned on rotate
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX api_webhook_subscriptions_agent ON api_webhook_subscriptions (agent_id, created_at);
CREATE INDEX api_webhook_subscriptions_account ON api_webhook_subscriptions (account) WHERE status = 'enabled';

CREATE TABLE api_webhook_deliveries (
  id text PRIMARY KEY,                      -- msg_ + 24 hex: the webhook-id header, stable across retries
  subscription_id text NOT NULL REFERENCES api_webhook_subscriptions (id) ON DELETE CASCADE,
  event_type text NOT NULL,
  payload text NOT NULL,                    -- the exact signed body
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at bigint,                   -- pending: when the worker may send it next (also its claim lease)
  last_response_status integer,
  last_error text,
  created_at bigint NOT NULL,
  completed_at bigint
);
CREATE INDEX api_webhook_deliveries_due ON api_webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX api_webhook_deliveries_log ON api_webhook_deliveries (subscription_id, created_at DESC, id DESC);

CREATE TABLE api_webhook_attempts (
  delivery_id text NOT NULL REFERENCES api_webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  at bigint NOT NULL,
  response_status integer,                  -- null when no HTTP answer (refused, timeout, blocked address)
  error text,
  duration_ms integer NOT NULL,
  next_attempt_at bigint,                   -- the retry this attempt scheduled, if any
  PRIMARY KEY (delivery_id, attempt)
);
