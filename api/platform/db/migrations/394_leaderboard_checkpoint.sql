-- The leaderboard pass's checkpoint (docs/leaderboard.md "Restart"): the figures of the journal up to an entry, and
-- the snapshots at the period boundaries it holds, so a restarted service reads only the journal after it instead of
-- the whole journal before its first board. One row, the newest; a cache of the journal, never a source: deleting it
-- is always safe. It names its entry by the hash of that entry's text, as engine snapshots do, so a checkpoint of
-- another journal (a database restored, then written on) is not used.
CREATE TABLE leaderboard_checkpoint (
  id smallint PRIMARY KEY CHECK (id = 1),
  version integer NOT NULL,
  last_seq bigint NOT NULL,                  -- the last journal entry the figures include
  entry_hash text NOT NULL,                  -- md5 of that entry's command and ops text
  applied_to bigint NOT NULL,                -- the instant (epoch ms) up to which the journal was applied
  season_start bigint NOT NULL,
  season_end bigint NOT NULL,
  body text NOT NULL,                        -- the pass's state and its snapshots (api/domain/ranking/pass-checkpoint.ts)
  created_at bigint NOT NULL
);
