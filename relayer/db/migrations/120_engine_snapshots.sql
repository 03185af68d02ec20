-- Engine snapshots (docs/journal.md "Snapshots"): the engine's state after journal entry `seq`, so a start restores it
-- and replays only the entries after it. A cache of the journal, never a source: without a row, a start replays the
-- whole journal, as it did before snapshots.
CREATE TABLE engine_snapshots (
  seq bigint PRIMARY KEY REFERENCES journal_entries (seq),
  at bigint NOT NULL,                -- the entry's at: the engine's clock floor after it
  entry_hash text NOT NULL,          -- md5 of the entry's command and ops text: the journal the snapshot belongs to
  parts integer NOT NULL,            -- rows in engine_snapshot_parts
  created_at bigint NOT NULL
);

-- Engine.snapshot()'s texts, in order: its head (version, engine configuration, counts), then its records in parts.
CREATE TABLE engine_snapshot_parts (
  seq bigint NOT NULL REFERENCES engine_snapshots (seq) ON DELETE CASCADE,
  part integer NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (seq, part)
);
