-- The operator's clock offset on a local chain (docs/dev-chain.md): how far `npm run admin -- time advance` moved the
-- service clock, so a restart resumes at the moved time and never goes backwards. One row; no row means 0.
CREATE TABLE IF NOT EXISTS api_dev_clock (
  id smallint PRIMARY KEY CHECK (id = 1),
  offset_ms bigint NOT NULL CHECK (offset_ms >= 0),
  updated_at bigint NOT NULL
);
