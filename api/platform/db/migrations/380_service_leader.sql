-- The instance that owns the exchange advertises its URL here (docs/scale-out.md, api/platform/leader/leader-lock.ts).
-- The row names the backend pid of the leader's advisory-lock session: followers trust it only while that session
-- still holds the lock, so a dead leader's row is never followed and needs no clean-up.
CREATE TABLE service_leader (
  lock_key bigint PRIMARY KEY,
  url text NOT NULL,
  backend_pid integer NOT NULL,
  since_ms bigint NOT NULL
);
