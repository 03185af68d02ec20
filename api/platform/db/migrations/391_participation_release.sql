-- PM's participation release (docs/participation-release.md). A verified identity earns one unit for each UTC day
-- on which one of its members traded; units are banked here when the day is over (lazily, when a member reads its
-- state or prepares a claim) and never change afterwards. The pool row counts what was banked, under a row lock, so
-- two instances never bank beyond the pool.
CREATE TABLE participation_pool (
  release_id text PRIMARY KEY,
  banked bigint NOT NULL
);

CREATE TABLE participation_credits (
  identity_id uuid NOT NULL REFERENCES identities (id),
  day integer NOT NULL,                     -- UTC day number (epoch ms / 86,400,000)
  amount bigint NOT NULL,
  credited_at bigint NOT NULL,
  PRIMARY KEY (identity_id, day)
);

-- A claim: a voucher for the identity's cumulative entitlement, paid to `recipient` by the distributor when a
-- transaction presents it. `open` until it is paid, or its voucher expired unpaid: one open intent per identity.
CREATE TABLE participation_intents (
  id text PRIMARY KEY,
  release_id text NOT NULL,
  identity_id uuid NOT NULL REFERENCES identities (id),
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  recipient text NOT NULL,                  -- lower case
  cumulative bigint NOT NULL,               -- the voucher's cumulativeAmount
  amount bigint NOT NULL,                   -- what it pays: cumulative - paid on chain at prepare; the event's once paid
  status text NOT NULL CHECK (status IN ('prepared', 'submitted', 'expired_awaiting_finality', 'projection_pending', 'paid', 'unpaid', 'failed')),
  open boolean NOT NULL,
  expires_at bigint NOT NULL,
  tx_hash text,
  block_number bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  paid_at bigint
);
CREATE UNIQUE INDEX participation_intents_open ON participation_intents (identity_id) WHERE open;
CREATE INDEX participation_intents_identity ON participation_intents (identity_id, created_at DESC);
