-- Identity linking (docs/identity.md): one person's wallets and agents under one identity. The root agent (a wallet
-- agent) makes a short-lived, multi-use link code; each child agent submits its consent with it; the root approves
-- consents in bulk. A wallet belongs to at most one identity (the members' primary key). The operator verifies an
-- identity (a human behind it): `verified_at`; a verified identity casts one human vote per session.
CREATE TABLE identities (
  id uuid PRIMARY KEY,
  root_agent_id uuid NOT NULL UNIQUE REFERENCES api_agents (id),
  verified_at bigint,
  created_at bigint NOT NULL
);

CREATE TABLE identity_members (
  wallet_address text PRIMARY KEY,          -- lower case; one identity per wallet
  identity_id uuid NOT NULL REFERENCES identities (id),
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  ledger_account text NOT NULL,             -- the agent's ledger account (ballots are cast by account)
  role text NOT NULL CHECK (role IN ('root', 'linked_agent')),
  linked_at bigint NOT NULL
);
CREATE INDEX identity_members_identity ON identity_members (identity_id);
CREATE UNIQUE INDEX identity_members_agent ON identity_members (agent_id);

-- Link codes are bearer secrets for 3 minutes: only their SHA-256 is kept.
CREATE TABLE identity_link_codes (
  code_hash text PRIMARY KEY,
  identity_id uuid NOT NULL REFERENCES identities (id),
  expires_at bigint NOT NULL,
  created_at bigint NOT NULL
);

CREATE TABLE identity_link_consents (
  id uuid PRIMARY KEY,
  n bigserial NOT NULL,                     -- arrival order (consents of the same millisecond list in it)
  identity_id uuid NOT NULL REFERENCES identities (id),
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  wallet_address text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'expired')),
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  decided_at bigint
);
-- One pending consent per child agent at a time (a new consent replaces it).
CREATE UNIQUE INDEX identity_link_consents_pending ON identity_link_consents (agent_id) WHERE status = 'pending';
CREATE INDEX identity_link_consents_identity ON identity_link_consents (identity_id, status);
