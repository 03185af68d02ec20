-- Key/value facts about this data directory: which chain and deployment it belongs to.
CREATE TABLE service_meta (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
