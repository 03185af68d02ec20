-- The durable journal (docs/journal.md). Every accepted command is one entry; an entry and the execution reports
-- it produced are written in the same transaction (group commit), so a report exists exactly when its entry does.
CREATE TABLE journal_entries (
  seq bigint PRIMARY KEY,            -- 1, 2, 3, ... in the order the engine applied the commands
  at bigint NOT NULL,                -- epoch ms handed to Engine.apply (replay uses the same value)
  command json NOT NULL,             -- command JSON (bigint as decimal strings); json keeps the text verbatim
  ops json NOT NULL,                 -- JSON array of the decoder JournalOps it produced
  op_count integer NOT NULL
);

CREATE TABLE execution_reports (
  account text NOT NULL,             -- lower-case 0x address
  seq integer NOT NULL,              -- per-account, gap-free, from 1
  at bigint NOT NULL,
  entry_seq bigint NOT NULL REFERENCES journal_entries (seq),
  body json NOT NULL,                -- the report JSON
  PRIMARY KEY (account, seq)
);

-- One row per commitJournalBatch; nonce = the batch's expectedNonce. Rows are created in nonce order and never
-- abandoned: the batcher finishes the highest row before it builds the next one.
CREATE TABLE ledger_batches (
  nonce bigint PRIMARY KEY,
  first_seq bigint NOT NULL,         -- journal entries first_seq..last_seq (inclusive) are in this batch
  last_seq bigint NOT NULL,
  op_count integer NOT NULL,
  prev_root text NOT NULL,
  root text NOT NULL,
  prev_commitment text NOT NULL,
  commitment text NOT NULL,
  payload_hash text NOT NULL,
  payload text NOT NULL,             -- 0x hex of the PMJ5 payload, kept so a retry sends the same bytes
  status text NOT NULL CHECK (status IN ('pending', 'sent', 'confirmed')),
  tx_hash text,
  block_number bigint,
  error text,
  attempts integer NOT NULL DEFAULT 0,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
