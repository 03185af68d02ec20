-- The operator's incident throttle (docs/admin.md): lowers every rate ceiling of an agent's keys to a percentage of
-- its tier's, until a time or until lifted; GET /me says so (`rateLimits.overridden`). NULL percent: no throttle.
ALTER TABLE api_agents
  ADD COLUMN rate_throttle_percent integer CHECK (rate_throttle_percent BETWEEN 1 AND 100),
  ADD COLUMN rate_throttle_reason text,
  ADD COLUMN rate_throttle_until bigint;
