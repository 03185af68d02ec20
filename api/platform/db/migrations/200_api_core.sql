-- API core: agents, their hashed API keys, wallet-proof nonces, idempotency records, claim links,
-- the mail outbox and the public record of calls. Every instant is epoch milliseconds from the service clock.

CREATE TABLE api_agents (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  name_key text NOT NULL UNIQUE,            -- lower(name): names are unique ignoring case
  wallet_address text UNIQUE,               -- lowercased 0x address, null until bound
  email text,
  email_verified boolean NOT NULL DEFAULT false,
  owner_email text,                         -- claimed-agent path: the accountable human
  registration_path text NOT NULL,          -- admin, demo, claim, wallet, email, anonymous
  tier text NOT NULL,                       -- read-only, propose, execute
  scopes jsonb NOT NULL,                    -- array of scope strings
  rate_tier text NOT NULL DEFAULT 'ordinary', -- allocation tier: ordinary or market-maker
  rate_overridden boolean NOT NULL DEFAULT false,
  claimed_at bigint,
  expires_at bigint,                        -- anonymous trial keys: 24 h after creation
  created_at bigint NOT NULL
);
CREATE INDEX api_agents_owner_email ON api_agents (owner_email);
CREATE UNIQUE INDEX api_agents_email ON api_agents (email) WHERE email IS NOT NULL;

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  secret_hash text NOT NULL UNIQUE,         -- sha256 hex of the whole raw key; the key itself is never stored
  created_at bigint NOT NULL,
  revoked_at bigint,
  last_used_at bigint
);
CREATE INDEX api_keys_agent ON api_keys (agent_id);

CREATE TABLE api_nonces (
  nonce text PRIMARY KEY,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX api_nonces_expires ON api_nonces (expires_at);

CREATE TABLE api_idempotency (
  owner text NOT NULL,
  idem_key text NOT NULL,
  operation text NOT NULL,
  request_hash text NOT NULL,
  state text NOT NULL,                      -- in_flight, done
  status integer,
  headers jsonb,
  body text,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (owner, idem_key)
);

CREATE TABLE api_claim_links (
  token_hash text PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  kind text NOT NULL,                       -- claim, verify-email
  email text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX api_claim_links_agent ON api_claim_links (agent_id);

CREATE TABLE api_mail_outbox (
  id bigserial PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  created_at bigint NOT NULL,
  sent_at bigint,                           -- set when SMTP accepted it
  error text
);

CREATE TABLE api_call_records (
  id bigserial PRIMARY KEY,
  agent_id uuid NOT NULL,
  operation text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  surface text NOT NULL,                    -- rest, mcp
  status integer NOT NULL,
  idempotency_key text,
  body_hash text,
  at bigint NOT NULL
);
CREATE INDEX api_call_records_agent ON api_call_records (agent_id, id DESC);

CREATE TABLE api_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at bigint NOT NULL
);
