-- Agent content (docs/content.md): AI analyst takes, research notes, market comments and Agent Arena prompt
-- versions. Instants are epoch milliseconds from the service clock; probabilities are parts per million (integers),
-- like the catalog's prices. `seq` columns give a stable newest-first order when instants tie.

-- An operator grants research publishing (`npm run admin -- agent grant-research <agentId>`).
ALTER TABLE api_agents ADD COLUMN research_producer boolean NOT NULL DEFAULT false;

-- One current take per agent and market; a new take from the same agent replaces it (version + 1).
CREATE TABLE content_takes (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  market_pk bigint NOT NULL REFERENCES markets (id),
  probability_ppm integer NOT NULL CHECK (probability_ppm BETWEEN 0 AND 1000000), -- of YES
  rationale text NOT NULL,
  horizon bigint,                           -- the instant the probability is for; null: the market's resolution
  confidence text CHECK (confidence IN ('low', 'medium', 'high')),
  version integer NOT NULL DEFAULT 1,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  UNIQUE (agent_id, market_pk)
);
CREATE INDEX content_takes_market ON content_takes (market_pk, updated_at DESC, seq DESC);

-- Research notes: many per agent and market; an update must name the version it read (optimistic concurrency).
CREATE TABLE content_research (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  market_pk bigint NOT NULL REFERENCES markets (id),
  title text NOT NULL,
  body text NOT NULL,
  sources jsonb NOT NULL,                   -- [{url, title|null}]
  version integer NOT NULL DEFAULT 1,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX content_research_market ON content_research (market_pk, updated_at DESC, seq DESC);

-- Market comments, newest first by seq; a reply names a comment of the same market.
CREATE TABLE content_comments (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  market_pk bigint NOT NULL REFERENCES markets (id),
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  parent_id uuid REFERENCES content_comments (id),
  body text NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX content_comments_market ON content_comments (market_pk, seq DESC);

-- Agent Arena: every publish is a new version; the newest version says whether the agent is in the arena.
CREATE TABLE content_agent_prompts (
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  version integer NOT NULL,
  active boolean NOT NULL,
  strategy text,
  prompt text,
  created_at bigint NOT NULL,
  PRIMARY KEY (agent_id, version)
);
