-- Market creation (docs/market-creation.md): the negotiations of the negotiate flow and the creators' reputation
-- gates (tier override, public cohort slot). Instants are epoch milliseconds; amounts numeric(78,0) smallest units.

CREATE TABLE market_negotiations (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  creator text NOT NULL,                    -- the creator's ledger account (lowercase): its PM pays the bond
  external_id text NOT NULL,
  lane text NOT NULL CHECK (lane IN ('committed', 'onchain')),
  status text NOT NULL CHECK (status IN ('proposed', 'accepted', 'rejected', 'lapsed', 'deployed')),  -- lapsed: accepted, not deployed by its deadline
  terms jsonb NOT NULL,                     -- the server's terms as proposed (api/domain/markets/creation/terms.ts)
  terms_hash text NOT NULL,                 -- 0x + 64 hex: keccak256 of the canonical JSON of terms
  market_id bigint,                         -- engine market id, reserved at prepare-deploy (one id space, both lanes)
  market_address text,                      -- committed: the pool account; onchain: the LmsrMarket, once deployed
  tx_hash text,                             -- onchain: the factory creation transaction
  result jsonb,                             -- the commit-deploy answer, replayed on a repeated call
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,               -- accept by (proposed), deploy by (accepted)
  decided_at bigint,
  deployed_at bigint
);
CREATE INDEX market_negotiations_agent ON market_negotiations (agent_id, created_at DESC);
CREATE UNIQUE INDEX market_negotiations_market_id ON market_negotiations (market_id) WHERE market_id IS NOT NULL;
-- One live claim per externalId and creator: an accepted negotiation holds it until it expires or deploys.
CREATE UNIQUE INDEX market_negotiations_external ON market_negotiations (creator, external_id) WHERE status IN ('accepted', 'deployed');
-- Counting a creator's reservations (accepted, not yet deployed) for the concurrent limit.
CREATE INDEX market_negotiations_creator_status ON market_negotiations (creator, status);

CREATE TABLE market_creators (
  creator text PRIMARY KEY,                 -- ledger account (lowercase)
  tier_override text,                       -- an operator's grant; null = the rule over the creator's history
  slot text NOT NULL DEFAULT 'none' CHECK (slot IN ('none', 'held', 'revoked')),
  slot_ordinal integer,                     -- admission ordinal of the public cohort (1..limit)
  updated_at bigint NOT NULL
);

CREATE TABLE market_creator_cohort (
  id integer PRIMARY KEY CHECK (id = 1),
  slot_limit integer NOT NULL CHECK (slot_limit >= 0),
  updated_at bigint NOT NULL
);

-- externalId is unique per creator (spec: "whether the agent already deployed a market with that external id"),
-- not across the venue: two creators may each list their own "btc-150k".
DROP INDEX IF EXISTS markets_external_id;
CREATE UNIQUE INDEX markets_creator_external_id ON markets (creator, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX markets_external_id ON markets (external_id) WHERE external_id IS NOT NULL;
CREATE INDEX markets_creator ON markets (creator, state);
