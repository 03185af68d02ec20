-- The batcher's ledger after a batch row (docs/journal.md "Snapshots"), so a start rebuilds the ledger from it and the
-- ops of the later rows instead of from every op of the journal. Checked against the row's root before use; a cache,
-- never a source.
CREATE TABLE ledger_snapshots (
  nonce bigint PRIMARY KEY REFERENCES ledger_batches (nonce),
  cursor_seq bigint NOT NULL,        -- the batches up to this row end in entry cursor_seq, after its first cursor_taken ops
  cursor_taken integer NOT NULL,
  cursor_total integer NOT NULL,     -- the ops of entry cursor_seq
  balances text NOT NULL,            -- JSON [[account, assetId, balance], ...], every non-zero balance, the supply's too
  created_at bigint NOT NULL
);
